package dev.voicelink.android;

import android.os.Bundle;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The reply to a {@link AgentConstants#CMD_QUERY_SYNC_STATUS}, read from its {@link
 * AgentConstants#EVENT_CMD_RETURN} event: whether the platform processed the upload, and what it
 * replied.
 *
 * <pre>{@code
 * SyncStatus status = SyncStatus.from(event);
 * if (status != null && status.processed()) show("in effect once five minutes have passed");
 * }</pre>
 *
 * <p>When the check itself failed ({@link #errorCode()} not 0: {@link AgentConstants#ERROR_NETWORK},
 * or {@link AgentConstants#ERROR_SERVER_REFUSED} with the server's code), there is no reply, and the
 * query may simply be sent again. Immutable and thread-safe.
 */
public final class SyncStatus extends CommandReturn {
  private final @Nullable String csid;
  private final @Nullable String reply;
  private final @Nullable Integer checkError;

  private SyncStatus(AgentEvent event, Bundle data) {
    super(event, data);
    String result = data.getString(AgentConstants.KEY_RESULT);
    Map<String, Object> check = result == null ? null
        : JsonObjects.parseObject(result, "EVENT_CMD_RETURN data.result");
    this.csid = check == null ? null : JsonObjects.optString(check, "csid", "result.csid");
    this.reply = check == null ? null : JsonObjects.optString(check, "reply", "result.reply");
    Object error = check == null ? null : check.get("error");
    this.checkError = error instanceof Number ? ((Number) error).intValue() : null;
  }

  /**
   * The reply in {@code event}, or null when {@code event} is not the reply to a
   * CMD_QUERY_SYNC_STATUS.
   */
  public static @Nullable SyncStatus from(AgentEvent event) {
    if (event == null) throw new IllegalArgumentException("event must not be null");
    if (event.eventType() != AgentConstants.EVENT_CMD_RETURN
        || event.arg1() != AgentConstants.CMD_QUERY_SYNC_STATUS) {
      return null;
    }
    return new SyncStatus(event, event.data());
  }

  /**
   * Whether the platform processed the upload ({@link #checkError()} 0): it is in effect five minutes
   * after the upload, in interactions whose {@code pers_param} names it.
   */
  public boolean processed() {
    return checkError != null && checkError == 0;
  }

  /** The platform's reply on the upload (protocol 4.9), or null when the check failed. */
  public @Nullable String reply() {
    return reply;
  }

  /** The platform's error code for the upload, 0 when processed; null when the check failed. */
  public @Nullable Integer checkError() {
    return checkError;
  }

  /** The identifier of the check call, or null when the check failed. */
  public @Nullable String csid() {
    return csid;
  }

  @Override public String toString() {
    return "SyncStatus{sid=" + sid() + ", " + (isSuccess() ? "error=" + checkError + ", reply=" + reply
        : failure()) + tagSuffix() + "}";
  }
}
