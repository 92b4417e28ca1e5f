package dev.voicelink.interact.internal;

import dev.voicelink.core.internal.Seam;
import dev.voicelink.interact.Disconnect;
import dev.voicelink.interact.InteractionResult;
import dev.voicelink.interact.RecognizedEntity;
import java.util.List;

/** Makes the interaction results and disconnects for {@code voicelink-fixtures}. Not API. */
public interface InteractResults {
  Seam<InteractResults> SEAM = new Seam<>(InteractionResult.class);

  InteractionResult interactionResult(int seq, String text, List<RecognizedEntity> entities,
      String json);

  RecognizedEntity recognizedEntity(String resourceName, String value, String matched);

  Disconnect disconnect(Disconnect.Cause cause, String detail, boolean reconnecting);
}
