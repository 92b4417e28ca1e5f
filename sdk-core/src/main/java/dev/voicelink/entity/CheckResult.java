package dev.voicelink.entity;

import org.jspecify.annotations.Nullable;

/**
 * What check-resource said about an upload: {@link #error()} is 0 once the platform has processed the
 * data (and {@link #reply()} describes the outcome); a non-zero {@code error} means it is still being
 * processed or could not be used, as {@code reply} says.
 *
 * <p>Immutable and thread-safe. Apps' tests make results with {@code voicelink-fixtures}.
 */
public final class CheckResult {
  private final String sid;
  private final String csid;
  private final String reply;
  private final long error;

  CheckResult(String sid, String csid, String reply, long error) {
    this.sid = sid;
    this.csid = csid;
    this.reply = reply;
    this.error = error;
  }

  /** The upload's sid. */
  public String sid() {
    return sid;
  }

  /** The identifier of this check call. */
  public String csid() {
    return csid;
  }

  /** The server's description of the outcome. */
  public String reply() {
    return reply;
  }

  /** The outcome code: 0 when processed. */
  public long error() {
    return error;
  }

  /** True when the platform processed the upload ({@code error == 0}). */
  public boolean processed() {
    return error == 0;
  }

  /** Results are equal when all four fields are. */
  @Override public boolean equals(@Nullable Object other) {
    if (!(other instanceof CheckResult)) return false;
    CheckResult that = (CheckResult) other;
    return sid.equals(that.sid) && csid.equals(that.csid) && reply.equals(that.reply)
        && error == that.error;
  }

  @Override public int hashCode() {
    return ((sid.hashCode() * 31 + csid.hashCode()) * 31 + reply.hashCode()) * 31
        + (int) (error ^ (error >>> 32));
  }

  @Override public String toString() {
    return "CheckResult{sid=" + sid + ", csid=" + csid + ", error=" + error + ", reply=" + reply + "}";
  }
}
