package dev.voicelink.interact;

import dev.voicelink.interact.internal.InteractResults;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The platform's answer to one write: the text it understood and the dynamic entities it found in
 * it. {@link #json()} is the server's message as received, for callers that forward it unchanged.
 * Immutable and thread-safe; apps' tests make them with {@code voicelink-fixtures}.
 */
public final class InteractionResult {
  static {
    InteractResults.SEAM.install(new InteractResults() {
      @Override public InteractionResult interactionResult(int seq, String text,
          List<RecognizedEntity> entities, String json) {
        return new InteractionResult(seq, text, entities, json);
      }

      @Override public RecognizedEntity recognizedEntity(String resourceName, String value,
          String matched) {
        return new RecognizedEntity(resourceName, value, matched);
      }

      @Override public Disconnect disconnect(Disconnect.Cause cause, String detail,
          boolean reconnecting, int lastSeq, long retryAfterMillis) {
        return new Disconnect(cause, detail, reconnecting, lastSeq, retryAfterMillis);
      }

      @Override public InteractionResult parseResult(String json) throws IOException {
        InteractionCodec.Message message = InteractionCodec.parse(json);
        if (!"result".equals(message.type)) {
          throw new IOException("not the result of a write: its type is " + message.type);
        }
        return new InteractionResult(message.seq, message.text, message.entities, json);
      }
    });
  }

  private final int seq;
  private final String text;
  private final List<RecognizedEntity> entities;
  private final String json;

  InteractionResult(int seq, String text, List<RecognizedEntity> entities, String json) {
    this.seq = seq;
    this.text = text;
    this.entities = Collections.unmodifiableList(new ArrayList<>(entities));
    this.json = json;
  }

  /** The sequence number returned by the write this result answers. */
  public int seq() {
    return seq;
  }

  /** The text the platform understood. */
  public String text() {
    return text;
  }

  /** The dynamic entities found; empty when none were found or the write had no pers_param. */
  public List<RecognizedEntity> entities() {
    return entities;
  }

  /** The result message as the server sent it. */
  public String json() {
    return json;
  }

  /** Results are equal when they came from the same message: same seq and the same JSON text. */
  @Override public boolean equals(@Nullable Object other) {
    if (!(other instanceof InteractionResult)) return false;
    InteractionResult that = (InteractionResult) other;
    return seq == that.seq && json.equals(that.json) && text.equals(that.text)
        && entities.equals(that.entities);
  }

  @Override public int hashCode() {
    return (seq * 31 + json.hashCode()) * 31 + entities.hashCode();
  }

  @Override public String toString() {
    return "InteractionResult{seq=" + seq + ", text=" + text + ", entities=" + entities + "}";
  }
}
