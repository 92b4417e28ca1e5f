package dev.voicelink.entity;

import org.jspecify.annotations.Nullable;

/**
 * Resource data that the platform would refuse or silently misuse, found before anything was sent: a
 * record without a defined field, an empty main field, a line that is not a JSON object, text that is
 * not UTF-8, or a resource larger than the configured maximum.
 *
 * <p>It is a misuse of the API ({@link IllegalArgumentException}), not a server refusal: nothing left
 * the device. The message names the record and the field.
 *
 * <p>Thrown on the calling thread before any request is made; immutable.
 */
public final class InvalidResourceException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final @Nullable String field;
  private final int recordNumber;

  InvalidResourceException(String message, @Nullable String field, int recordNumber) {
    super(message);
    this.field = field;
    this.recordNumber = recordNumber;
  }

  /** The field at fault, or null when the problem is not about one field (size, UTF-8, syntax). */
  public @Nullable String field() {
    return field;
  }

  /** The 1-based number of the record at fault, or 0 when the problem is not about one record. */
  public int recordNumber() {
    return recordNumber;
  }
}
