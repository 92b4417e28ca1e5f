package dev.voicelink.samples.speaker;

import static dev.voicelink.samples.speaker.Output.fields;

import dev.voicelink.entity.Dimension;
import dev.voicelink.entity.PlatformToolsClient;
import dev.voicelink.entity.RecordSource;
import dev.voicelink.entity.ResourceDefinition;
import dev.voicelink.testing.DefaultConsole;

/** Step 6: application-level songs, uploaded through the platform tools endpoint with the cloud token. */
final class SongsUploadStep implements DemoStep {
  static final String SONGS = "{\"name\":\"Blue Lotus\",\"alias\":\"Lotus\"}\n"
      + "{\"name\":\"Morning Rain\",\"alias\":\"\"}";

  @Override public String title() {
    return "Application-level songs uploaded through the platform tools endpoint";
  }

  @Override public void run(DemoSession demo) throws Exception {
    PlatformToolsClient platform = PlatformToolsClient.builder(demo.client)
        .cloudTokens(demo.cloudTokens)
        .build();
    String sid = platform.uploadEntities(ResourceDefinition.builder()
            .name(DefaultConsole.NAMESPACE + ".songs")
            .mainField("name").secondaryFields("alias")
            .dimension(Dimension.APPLICATION)
            .build(),
        RecordSource.fromText(SONGS), DefaultConsole.APPID).execute();
    demo.out.record(fields("step", demo.step(), "sid", sid),
        "  sid " + sid + " (Authorization: the cloud token)");
  }
}
