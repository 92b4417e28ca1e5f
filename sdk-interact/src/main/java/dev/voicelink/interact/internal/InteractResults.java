package dev.voicelink.interact.internal;

import dev.voicelink.core.internal.Seam;
import dev.voicelink.interact.Disconnect;
import dev.voicelink.interact.InteractionResult;
import dev.voicelink.interact.RecognizedEntity;
import java.io.IOException;
import java.util.List;

/** Makes the interaction results and disconnects for {@code voicelink-fixtures}. Not API. */
public interface InteractResults {
  Seam<InteractResults> SEAM = new Seam<>(InteractionResult.class);

  InteractionResult interactionResult(int seq, String text, List<RecognizedEntity> entities,
      String json);

  RecognizedEntity recognizedEntity(String resourceName, String value, String matched);

  Disconnect disconnect(Disconnect.Cause cause, String detail, boolean reconnecting, int lastSeq,
      long retryAfterMillis);

  /**
   * The result of a write as the server wrote it ({@link InteractionResult#json()}), read as the
   * channel reads it.
   *
   * @throws IOException if {@code json} is not such a result
   */
  InteractionResult parseResult(String json) throws IOException;
}
