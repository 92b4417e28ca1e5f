package dev.voicelink.android;

import android.os.Bundle;
import dev.voicelink.interact.InteractionResult;
import dev.voicelink.interact.internal.InteractResults;
import java.io.IOException;
import org.jspecify.annotations.Nullable;

/**
 * The result of a {@link AgentConstants#CMD_WRITE}, read from its {@link AgentConstants#EVENT_RESULT}
 * event: what the platform understood ({@link InteractionResult#text()}) and the dynamic entities it
 * found in it ({@link InteractionResult#entities()}).
 *
 * <pre>{@code
 * WriteResult write = WriteResult.from(event);
 * if (write != null) {
 *   for (RecognizedEntity entity : write.result().entities()) call(entity.value());
 * }
 * }</pre>
 *
 * <p>A write that failed comes as an {@link AgentError} instead. Immutable and thread-safe.
 */
public final class WriteResult {
  private final int seq;
  private final String dataType;
  private final @Nullable String tag;
  private final InteractionResult result;

  private WriteResult(int seq, String dataType, @Nullable String tag, InteractionResult result) {
    this.seq = seq;
    this.dataType = dataType;
    this.tag = tag;
    this.result = result;
  }

  /** The result in {@code event}, or null when {@code event} is not the result of a write. */
  public static @Nullable WriteResult from(AgentEvent event) {
    if (event == null) throw new IllegalArgumentException("event must not be null");
    if (event.eventType() != AgentConstants.EVENT_RESULT) return null;
    Bundle data = event.data();
    InteractionResult result;
    try {
      result = InteractResults.SEAM.get().parseResult(event.info());
    } catch (IOException e) {
      throw new IllegalArgumentException("EVENT_RESULT info is not the result of a write: "
          + e.getMessage(), e);
    }
    String dataType = data.getString(AgentConstants.KEY_DATA_TYPE);
    return new WriteResult(data.getInt(AgentConstants.KEY_SEQ, result.seq()),
        dataType != null ? dataType : "", data.getString(AgentConstants.KEY_TAG), result);
  }

  /** The write's sequence number, as the channel numbered it. */
  public int seq() {
    return seq;
  }

  /** {@code text} or {@code audio}. */
  public String dataType() {
    return dataType;
  }

  /** The tag of the write ({@link AgentCommands.WriteBuilder#tag}), or null when it had none. */
  public @Nullable String tag() {
    return tag;
  }

  /** What the platform understood, and the dynamic entities it found. */
  public InteractionResult result() {
    return result;
  }

  @Override public String toString() {
    return "WriteResult{seq=" + seq + ", dataType=" + dataType + (tag != null ? ", tag=" + tag : "")
        + ", entities=" + result.entities().size() + "}";
  }
}
