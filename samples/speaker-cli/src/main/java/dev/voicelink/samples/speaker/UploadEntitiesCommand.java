package dev.voicelink.samples.speaker;

import dev.voicelink.auth.FileTokenStore;
import dev.voicelink.auth.TokenRecord;
import dev.voicelink.auth.TokenSource;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.entity.Dimension;
import dev.voicelink.entity.PlatformToolsClient;
import dev.voicelink.entity.RecordSource;
import dev.voicelink.entity.ResourceDefinition;
import dev.voicelink.entity.ResourceName;
import java.io.File;
import java.io.IOException;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Uploads entities through the platform tools endpoint with the token the type needs. */
@Command(name = "upload-entities", mixinStandardHelpOptions = true,
    description = "Uploads entities (platform tools upload_entities) from a file of JSON lines.")
final class UploadEntitiesCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--platform-url", required = true, description = "platform tools address")
  String platformUrl;
  @Option(names = "--type", required = true,
      description = "user (user token), device (device token) or client (cloud token)")
  String type;
  @Option(names = "--resource-name", required = true, description = "<namespace>.<name>")
  String resourceName;
  @Option(names = "--file", required = true, description = "records: UTF-8 JSON lines")
  File file;
  @Option(names = "--token-file", required = true,
      description = "token file of that kind, as written by the device sign-in (or a raw token)")
  File tokenFile;
  @Option(names = "--appid", description = "only for uploads effective for the front interceptor")
  String appid;
  @Option(names = "--fields", split = ",",
      description = "MAIN[,SECONDARY...]: check every record for these fields before sending")
  List<String> fields;
  @Option(names = "--json", description = "one JSON object per line on stdout")
  boolean json;

  @Override public Integer call() {
    Output output = new Output(spec.commandLine().getOut(), spec.commandLine().getErr(), json);
    return EntityCommands.run(output, () -> {
      Dimension dimension;
      switch (type) {
        case "user": dimension = Dimension.USER; break;
        case "device": dimension = Dimension.DEVICE; break;
        case "client": dimension = Dimension.APPLICATION; break;
        default: throw new IllegalArgumentException("--type must be user, client or device; was: " + type);
      }
      ResourceName name = ResourceName.parse(resourceName);
      if (!file.isFile()) throw new IllegalArgumentException("--file " + file + " is not a file");
      final String token = readToken(tokenFile);
      TokenSource tokens = () -> token;
      try (VoiceLinkClient voiceLink = VoiceLinkClient.builder().platformUrl(platformUrl).build()) {
        PlatformToolsClient.Builder builder = PlatformToolsClient.builder(voiceLink);
        if (dimension.equals(Dimension.USER)) builder.userTokens(tokens);
        if (dimension.equals(Dimension.DEVICE)) builder.deviceTokens(tokens);
        if (dimension.equals(Dimension.APPLICATION)) builder.cloudTokens(tokens);
        PlatformToolsClient client = builder.build();
        RecordSource records = RecordSource.fromFile(file);
        String sid;
        if (fields != null && !fields.isEmpty()) {
          sid = client.uploadEntities(ResourceDefinition.builder().name(name)
              .mainField(fields.get(0))
              .secondaryFields(fields.subList(1, fields.size()).toArray(new String[0]))
              .dimension(dimension).build(), records, appid).execute();
        } else {
          sid = client.uploadEntities(dimension, name, records, appid).execute();
        }
        output.record(Output.fields("sid", sid), "uploaded " + name + " (" + type + "): sid " + sid);
        return ExitCodes.SUCCESS;
      }
    });
  }

  /**
   * The access token of the token file the device flow wrote ({@link FileTokenStore}), or, for a file
   * that is not JSON, its text as is (a token pasted from elsewhere).
   */
  static String readToken(File file) throws IOException {
    if (!file.isFile()) throw new IllegalArgumentException("--token-file " + file + " is not a file");
    String text = SecretInput.read(file, "--token-file", "", Collections.<String, String>emptyMap());
    if (!text.startsWith("{")) return text;
    TokenRecord record = new FileTokenStore(file).load();
    if (record == null) throw new IllegalArgumentException("--token-file " + file + " is empty");
    return record.accessToken();
  }
}
