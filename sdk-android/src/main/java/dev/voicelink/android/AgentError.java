package dev.voicelink.android;

import android.os.Bundle;
import org.jspecify.annotations.Nullable;

/**
 * A failure the agent reports with {@link AgentConstants#EVENT_ERROR}: its code (one of the {@code
 * ERROR_} values of {@link AgentConstants}, each with its cause in {@code docs/agent.md}), why, and,
 * when it belongs to a command, which one: a write's {@code seq} and tag, or a set-params.
 *
 * <pre>{@code
 * AgentError error = AgentError.from(event);
 * if (error != null && error.code() == AgentConstants.ERROR_NOT_AUTHORIZED) showSignIn();
 * }</pre>
 *
 * <p>The reply to a sync or a query is never an {@code EVENT_ERROR}: it is a {@link SyncReturn} or a
 * {@link SyncStatus} whose {@code errorCode()} is not 0. Immutable and thread-safe.
 */
public final class AgentError {
  private final int code;
  private final String info;
  private final @Nullable Integer command;
  private final @Nullable Integer seq;
  private final @Nullable String dataType;
  private final @Nullable String tag;
  private final @Nullable String serverCode;
  private final @Nullable String serverDescription;

  private AgentError(AgentEvent event, Bundle data) {
    this.code = event.arg1();
    this.info = event.info();
    this.command = data.containsKey(AgentConstants.KEY_CMD) ? data.getInt(AgentConstants.KEY_CMD) : null;
    this.seq = data.containsKey(AgentConstants.KEY_SEQ) ? data.getInt(AgentConstants.KEY_SEQ) : null;
    this.dataType = data.getString(AgentConstants.KEY_DATA_TYPE);
    this.tag = data.getString(AgentConstants.KEY_TAG);
    this.serverCode = data.getString(AgentConstants.KEY_CODE);
    this.serverDescription = data.getString(AgentConstants.KEY_DESC);
  }

  /** The error in {@code event}, or null when {@code event} is not an {@code EVENT_ERROR}. */
  public static @Nullable AgentError from(AgentEvent event) {
    if (event == null) throw new IllegalArgumentException("event must not be null");
    if (event.eventType() != AgentConstants.EVENT_ERROR) return null;
    return new AgentError(event, event.data());
  }

  /** One of the {@code ERROR_} codes of {@link AgentConstants}. */
  public int code() {
    return code;
  }

  /** The name of {@link #code()}, such as {@code ERROR_NETWORK}. */
  public String codeName() {
    return codeName(code);
  }

  /** Why. */
  public String info() {
    return info;
  }

  /**
   * The command it belongs to ({@link AgentConstants#CMD_WRITE}, {@link
   * AgentConstants#CMD_SET_PARAMS}, or the message type of an unsupported message), or null when it
   * belongs to none ({@link AgentConstants#ERROR_NOT_AUTHORIZED}, {@link
   * AgentConstants#ERROR_RECONNECT_GAVE_UP}).
   */
  public @Nullable Integer command() {
    return command;
  }

  /** The write's sequence number, when a write that was sent failed. */
  public @Nullable Integer seq() {
    return seq;
  }

  /** {@code text} or {@code audio}, when a write failed. */
  public @Nullable String dataType() {
    return dataType;
  }

  /** The tag of the write that failed, when it had one. */
  public @Nullable String tag() {
    return tag;
  }

  /** The server's code, when the server refused ({@link AgentConstants#ERROR_SERVER_REFUSED}). */
  public @Nullable String serverCode() {
    return serverCode;
  }

  /** The server's description, when the server refused. */
  public @Nullable String serverDescription() {
    return serverDescription;
  }

  /**
   * The name of an error code of {@link AgentConstants}, such as {@code ERROR_NETWORK}; {@code SUCCESS}
   * for 0, and the number itself for a code the agent does not use.
   */
  public static String codeName(int code) {
    switch (code) {
      case AgentConstants.SUCCESS: return "SUCCESS";
      case AgentConstants.ERROR_INVALID_PARAMS: return "ERROR_INVALID_PARAMS";
      case AgentConstants.ERROR_NOT_CONNECTED: return "ERROR_NOT_CONNECTED";
      case AgentConstants.ERROR_UNSUPPORTED: return "ERROR_UNSUPPORTED";
      case AgentConstants.ERROR_NETWORK: return "ERROR_NETWORK";
      case AgentConstants.ERROR_SERVER_REFUSED: return "ERROR_SERVER_REFUSED";
      case AgentConstants.ERROR_NOT_AUTHORIZED: return "ERROR_NOT_AUTHORIZED";
      case AgentConstants.ERROR_DESTROYED: return "ERROR_DESTROYED";
      case AgentConstants.ERROR_ENTITY_NOT_CONFIGURED: return "ERROR_ENTITY_NOT_CONFIGURED";
      case AgentConstants.ERROR_CONNECTION_LOST: return "ERROR_CONNECTION_LOST";
      case AgentConstants.ERROR_RECONNECT_GAVE_UP: return "ERROR_RECONNECT_GAVE_UP";
      default: return Integer.toString(code);
    }
  }

  @Override public String toString() {
    return "AgentError{" + codeName() + ": " + info + (tag != null ? ", tag=" + tag : "") + "}";
  }
}
