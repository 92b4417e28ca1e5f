package dev.voicelink.android;

import org.jspecify.annotations.Nullable;

/**
 * The reply to a {@link AgentConstants#CMD_SYNC}, read from its {@link
 * AgentConstants#EVENT_CMD_RETURN} event: the upload's {@link #sid()} to query it by, the {@link
 * #tag()} the command carried, and the {@link #errorCode()}.
 *
 * <pre>{@code
 * SyncReturn sync = SyncReturn.from(event);
 * if (sync != null) {
 *   if (sync.isSuccess()) agent.sendMessage(AgentCommands.querySyncStatus(sync.sid()));
 *   else show(sync.tag() + " failed: " + sync.info());
 * }
 * }</pre>
 *
 * <p>Success means the upload reached the platform and its format was right; whether the platform
 * processed it is what {@link AgentCommands#querySyncStatus} asks. Immutable and thread-safe.
 */
public final class SyncReturn extends CommandReturn {
  private SyncReturn(AgentEvent event) {
    super(event, event.data());
  }

  /** The reply in {@code event}, or null when {@code event} is not the reply to a CMD_SYNC. */
  public static @Nullable SyncReturn from(AgentEvent event) {
    if (event == null) throw new IllegalArgumentException("event must not be null");
    if (event.eventType() != AgentConstants.EVENT_CMD_RETURN || event.arg1() != AgentConstants.CMD_SYNC) {
      return null;
    }
    return new SyncReturn(event);
  }

  @Override public String toString() {
    return "SyncReturn{" + (isSuccess() ? "sid=" + sid() : failure()) + tagSuffix() + "}";
  }
}
