package dev.voicelink.android;

import android.os.Bundle;
import org.jspecify.annotations.Nullable;

/**
 * What every reply to a command ({@link AgentConstants#EVENT_CMD_RETURN}) says: its error code, the
 * upload's {@code sid}, the tag the command carried, and, when the server refused, the server's code and
 * description. Read one with {@link SyncReturn#from} or {@link SyncStatus#from}. Immutable and
 * thread-safe.
 */
public abstract class CommandReturn {
  private final int errorCode;
  private final @Nullable String sid;
  private final @Nullable String tag;
  private final String info;
  private final @Nullable String serverCode;
  private final @Nullable String serverDescription;

  CommandReturn(AgentEvent event, Bundle data) {
    this.errorCode = event.arg2();
    this.sid = data.getString(AgentConstants.KEY_SID);
    this.tag = data.getString(AgentConstants.KEY_TAG);
    this.info = event.info();
    this.serverCode = data.getString(AgentConstants.KEY_CODE);
    this.serverDescription = data.getString(AgentConstants.KEY_DESC);
  }

  /** Whether the command did what it was sent for ({@link #errorCode()} 0). */
  public final boolean isSuccess() {
    return errorCode == AgentConstants.SUCCESS;
  }

  /** 0, or one of the {@code ERROR_} codes of {@link AgentConstants} ({@link AgentError#codeName}). */
  public final int errorCode() {
    return errorCode;
  }

  /** The upload's sid; null when a sync failed before it had one. */
  public final @Nullable String sid() {
    return sid;
  }

  /** The tag the command carried, or null when it had none. */
  public final @Nullable String tag() {
    return tag;
  }

  /** Why it failed; empty on success. */
  public final String info() {
    return info;
  }

  /** The server's code, when the server refused ({@link AgentConstants#ERROR_SERVER_REFUSED}). */
  public final @Nullable String serverCode() {
    return serverCode;
  }

  /** The server's description, when the server refused. */
  public final @Nullable String serverDescription() {
    return serverDescription;
  }

  /** The failure, for a {@code toString}: the error's name and why. */
  final String failure() {
    return AgentError.codeName(errorCode) + ": " + info;
  }

  final String tagSuffix() {
    return tag != null ? ", tag=" + tag : "";
  }
}
