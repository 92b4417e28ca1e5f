package dev.voicelink.samples.speaker;

import static dev.voicelink.samples.speaker.Output.fields;

import dev.voicelink.entity.PersParam;
import dev.voicelink.interact.InteractionResult;
import dev.voicelink.interact.RecognizedEntity;
import java.util.List;

/**
 * Step 10: the same words said with the user-level pers_param, without it, and a song request with
 * the application-level one; only with pers_param are the uploaded entities recognized. The channel's
 * last use: it is closed at the end.
 */
final class ActivationStep implements DemoStep {
  static final String SAID_TO_SPEAKER = "call Xiao Zhang";
  static final String SONG_REQUEST = "play blue lotus";

  @Override public String title() {
    return "Activation with pers_param, then the same without it";
  }

  @Override public void run(DemoSession demo) throws Exception {
    DemoChannel channel = demo.channel;
    String userLevel = PersParam.activation().user().build().toJson();
    InteractionResult with = channel.say(SAID_TO_SPEAKER, userLevel);
    InteractionResult without = channel.say(SAID_TO_SPEAKER, null);
    String appLevel = PersParam.activation().application().build().toJson();
    InteractionResult song = channel.say(SONG_REQUEST, appLevel);
    demo.closeChannel();
    report(demo, "pers_param " + userLevel, with);
    report(demo, "no pers_param", without);
    report(demo, "pers_param " + appLevel, song);
    if (!containsValue(with.entities(), "Zhang San")) {
      throw new DemoFailure("with pers_param the contact was not recognized: " + with.entities());
    }
    if (!without.entities().isEmpty()) {
      throw new DemoFailure("without pers_param dynamic entities were used: " + without.entities());
    }
    if (!containsValue(song.entities(), "Blue Lotus")) {
      throw new DemoFailure("the application-level song was not recognized: " + song.entities());
    }
  }

  private static void report(DemoSession demo, String label, InteractionResult result) {
    demo.out.record(fields("step", demo.step(), "with", label, "text", result.text(), "entities",
        result.entities().toString()),
        "  \"" + result.text() + "\" with " + label + " -> "
            + (result.entities().isEmpty() ? "no dynamic entity" : result.entities().toString()));
  }

  private static boolean containsValue(List<RecognizedEntity> entities, String value) {
    for (RecognizedEntity entity : entities) {
      if (entity.value().equals(value)) return true;
    }
    return false;
  }
}
