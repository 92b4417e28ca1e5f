package dev.voicelink.android;

import org.jspecify.annotations.Nullable;

/**
 * A change of the agent's connection, read from {@link AgentConstants#EVENT_CONNECTED_TO_SERVER}
 * (with the connected user's id), {@link AgentConstants#EVENT_SERVER_DISCONNECTED} and {@link
 * AgentConstants#EVENT_STATE}.
 *
 * <pre>{@code
 * ConnectionEvent connection = ConnectionEvent.from(event);
 * if (connection != null && connection.kind() == ConnectionEvent.Kind.CONNECTED) {
 *   agent.sendMessage(AgentCommands.sync(contacts).records(list).build()); // syncs may go now
 * }
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 */
public final class ConnectionEvent {
  /** What changed. */
  public enum Kind {
    /** Connected to the interaction channel: syncs and writes may be sent; {@link #uid()} is the user. */
    CONNECTED,
    /**
     * The connection ended: lost, in which case the agent reconnects by itself (after a backoff, or
     * when a network returns; after {@link AgentConstants#ERROR_RECONNECT_GAVE_UP}, at the next
     * {@code CMD_WRITE}); or closed by a sign-out, until the next sign-in.
     */
    DISCONNECTED,
    /** {@link AgentConstants#STATE_IDLE}: not connected (connecting, waiting to reconnect, offline). */
    IDLE,
    /** {@link AgentConstants#STATE_READY}: connected, no write awaiting its result. */
    READY,
    /** {@link AgentConstants#STATE_WORKING}: connected, a write awaiting its result. */
    WORKING
  }

  private final Kind kind;
  private final @Nullable String uid;

  private ConnectionEvent(Kind kind, @Nullable String uid) {
    this.kind = kind;
    this.uid = uid;
  }

  /** The change in {@code event}, or null when {@code event} is not a connection event. */
  public static @Nullable ConnectionEvent from(AgentEvent event) {
    if (event == null) throw new IllegalArgumentException("event must not be null");
    switch (event.eventType()) {
      case AgentConstants.EVENT_CONNECTED_TO_SERVER:
        return new ConnectionEvent(Kind.CONNECTED, event.data().getString(AgentConstants.KEY_UID));
      case AgentConstants.EVENT_SERVER_DISCONNECTED:
        return new ConnectionEvent(Kind.DISCONNECTED, null);
      case AgentConstants.EVENT_STATE:
        switch (event.arg1()) {
          case AgentConstants.STATE_IDLE: return new ConnectionEvent(Kind.IDLE, null);
          case AgentConstants.STATE_READY: return new ConnectionEvent(Kind.READY, null);
          case AgentConstants.STATE_WORKING: return new ConnectionEvent(Kind.WORKING, null);
          default: return null;
        }
      default:
        return null;
    }
  }

  public Kind kind() {
    return kind;
  }

  /** The connected user's id (32 lowercase letters and digits), for {@link Kind#CONNECTED}; else null. */
  public @Nullable String uid() {
    return uid;
  }

  @Override public String toString() {
    return "ConnectionEvent{" + kind + (uid != null ? ", uid=" + uid : "") + "}";
  }
}
