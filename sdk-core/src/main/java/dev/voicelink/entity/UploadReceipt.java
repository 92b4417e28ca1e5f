package dev.voicelink.entity;

import dev.voicelink.entity.internal.EntityResults;
import org.jspecify.annotations.Nullable;

/**
 * The web API accepted an upload: its {@link #sid()} (to check it later) and {@link #csid()}, and the
 * times that follow from the platform's rules, on the skew-corrected wall clock: checking is allowed
 * from {@link #earliestCheckAtMillis()} (10 seconds after the upload) and the data is in effect from
 * {@link #inEffectAtMillis()} (5 minutes after it).
 *
 * <p>Immutable and thread-safe. Apps' tests make receipts with {@code voicelink-fixtures}.
 */
public final class UploadReceipt {
  /** The platform processes uploads asynchronously; checking earlier than this is refused by the rules. */
  public static final long CHECK_DELAY_MILLIS = 10_000L;
  /** An upload is in effect this long after it succeeded. */
  public static final long IN_EFFECT_DELAY_MILLIS = 5 * 60_000L;

  static {
    EntityResults.SEAM.install(new EntityResults() {
      @Override public UploadReceipt uploadReceipt(String sid, String csid, long uploadedAtMillis,
          long uploadedAtNanos) {
        return new UploadReceipt(sid, csid, uploadedAtMillis, uploadedAtNanos);
      }

      @Override public CheckResult checkResult(String sid, String csid, String reply, long error) {
        return new CheckResult(sid, csid, reply, error);
      }
    });
  }

  private final String sid;
  private final String csid;
  private final long uploadedAtMillis;
  private final long uploadedAtNanos;

  UploadReceipt(String sid, String csid, long uploadedAtMillis, long uploadedAtNanos) {
    this.sid = sid;
    this.csid = csid;
    this.uploadedAtMillis = uploadedAtMillis;
    this.uploadedAtNanos = uploadedAtNanos;
  }

  /** The upload's identifier (it begins with {@code psn}); pass it to check-resource. */
  public String sid() {
    return sid;
  }

  /** The identifier of the upload call. */
  public String csid() {
    return csid;
  }

  /** When the upload succeeded, epoch milliseconds. */
  public long uploadedAtMillis() {
    return uploadedAtMillis;
  }

  /** The first moment check-resource may be called, epoch milliseconds. */
  public long earliestCheckAtMillis() {
    return uploadedAtMillis + CHECK_DELAY_MILLIS;
  }

  /** When the uploaded data is in effect, epoch milliseconds. */
  public long inEffectAtMillis() {
    return uploadedAtMillis + IN_EFFECT_DELAY_MILLIS;
  }

  /** The device's monotonic reading at upload time, for the 10-second rule. */
  long uploadedAtNanos() {
    return uploadedAtNanos;
  }

  /**
   * Receipts are equal when their sid, csid and upload time are: they name the same upload. (The
   * device's monotonic reading, which only times the checks, is not compared.)
   */
  @Override public boolean equals(@Nullable Object other) {
    if (!(other instanceof UploadReceipt)) return false;
    UploadReceipt that = (UploadReceipt) other;
    return sid.equals(that.sid) && csid.equals(that.csid)
        && uploadedAtMillis == that.uploadedAtMillis;
  }

  @Override public int hashCode() {
    return (sid.hashCode() * 31 + csid.hashCode()) * 31
        + (int) (uploadedAtMillis ^ (uploadedAtMillis >>> 32));
  }

  @Override public String toString() {
    return "UploadReceipt{sid=" + sid + ", csid=" + csid + ", uploadedAtMillis=" + uploadedAtMillis
        + ", inEffectAtMillis=" + inEffectAtMillis() + "}";
  }
}
