package dev.voicelink.android;

/**
 * The numbers of the command-and-event API: message types, event types, states, the keys of event
 * data and the error codes.
 *
 * <p>Message and event values are those of the platform's established device SDK, so that code written
 * against it ports by changing imports. Error codes are this SDK's own; each is listed with its cause in
 * {@code docs/agent.md} and {@code docs/errors.md}.
 *
 * <p>Constants only: no instances, no state, usable from any thread.
 */
public final class AgentConstants {
  private AgentConstants() {
  }

  // Messages (AgentMessage.msgType).

  /** Sends text or audio over the interaction channel; results arrive as {@link #EVENT_RESULT}. */
  public static final int CMD_WRITE = 2;
  /** Sets {@code audioparams.pers_param} for later audio writes. Produces no {@link #EVENT_CMD_RETURN}. */
  public static final int CMD_SET_PARAMS = 10;
  /** Uploads dynamic entity data (arg1 = {@link #SYNC_DATA_SCHEMA}). */
  public static final int CMD_SYNC = 13;
  /** Asks whether an upload was processed (params {@code {"sid":"..."}}). */
  public static final int CMD_QUERY_SYNC_STATUS = 24;

  /** {@code arg1} of {@link #CMD_SYNC}, and {@code sync_dtype} of its reply: entity data. */
  public static final int SYNC_DATA_SCHEMA = 3;
  /** {@code sync_dtype} of the reply to {@link #CMD_QUERY_SYNC_STATUS}. */
  public static final int SYNC_DATA_QUERY = 4;

  // Events (AgentEvent.eventType).

  /** A result of a {@link #CMD_WRITE}. */
  public static final int EVENT_RESULT = 1;
  /** Something failed that is not the reply of a command: {@code arg1} is the error code, info says why. */
  public static final int EVENT_ERROR = 2;
  /** The agent's state changed: {@code arg1} is one of the {@code STATE_} values. */
  public static final int EVENT_STATE = 3;
  /** The reply of {@link #CMD_SYNC} or {@link #CMD_QUERY_SYNC_STATUS}: arg1 the command, arg2 0 or the error. */
  public static final int EVENT_CMD_RETURN = 8;
  /** Connected to the interaction channel; data {@link #KEY_UID}. Syncs may be sent from now on. */
  public static final int EVENT_CONNECTED_TO_SERVER = 13;
  /** The interaction channel was lost; the agent reconnects by itself. */
  public static final int EVENT_SERVER_DISCONNECTED = 14;

  // States (EVENT_STATE arg1).

  /** Not connected to the interaction channel (connecting, waiting to reconnect, or offline). */
  public static final int STATE_IDLE = 1;
  /** Connected, no write awaiting its result. */
  public static final int STATE_READY = 2;
  /** Connected, at least one write awaiting its result. */
  public static final int STATE_WORKING = 3;

  // Keys of AgentEvent.data().

  /** int: {@link #SYNC_DATA_SCHEMA} in a sync reply, {@link #SYNC_DATA_QUERY} in a query reply. */
  public static final String KEY_SYNC_DTYPE = "sync_dtype";
  /** String: the upload's sid. */
  public static final String KEY_SID = "sid";
  /** String: the tag given in the command's params, when one was given. */
  public static final String KEY_TAG = "tag";
  /** String: the check result as JSON text ({@code sid}, {@code csid}, {@code reply}, {@code error}). */
  public static final String KEY_RESULT = "result";
  /** String: the connected user's id (32 lowercase letters and digits). */
  public static final String KEY_UID = "uid";
  /** int: the sequence number of a write, in its result or error. */
  public static final String KEY_SEQ = "seq";
  /** String: {@code text} or {@code audio}, in a write's result or error. */
  public static final String KEY_DATA_TYPE = "data_type";
  /** String: a server's code, when the server refused. */
  public static final String KEY_CODE = "code";
  /** String: a server's description, when the server refused. */
  public static final String KEY_DESC = "desc";
  /** int: the command a failure belongs to ({@code EVENT_ERROR} of a write or of set-params). */
  public static final String KEY_CMD = "cmd";

  // Error codes (EVENT_CMD_RETURN arg2, EVENT_ERROR arg1).

  /** Success. */
  public static final int SUCCESS = 0;
  /** The params or data of a message are malformed; info names the field. */
  public static final int ERROR_INVALID_PARAMS = 60001;
  /** Sent before {@link #EVENT_CONNECTED_TO_SERVER} or after {@link #EVENT_SERVER_DISCONNECTED}; nothing was sent. */
  public static final int ERROR_NOT_CONNECTED = 60002;
  /**
   * The message type is not one this agent handles. A sync or query whose arg1 is not {@link
   * #SYNC_DATA_SCHEMA} gets {@link #ERROR_INVALID_PARAMS} instead.
   */
  public static final int ERROR_UNSUPPORTED = 60003;
  /** A network failure, or a write with no result in time; the command may be sent again. */
  public static final int ERROR_NETWORK = 60004;
  /** The server refused; data carries its {@link #KEY_CODE}, {@link #KEY_DESC} and {@link #KEY_SID}. */
  public static final int ERROR_SERVER_REFUSED = 60005;
  /**
   * No valid device token: never signed in, signed in elsewhere and lost, or the refresh token was
   * refused. {@link Agent#signIn} signs in; the agent connects once it has.
   */
  public static final int ERROR_NOT_AUTHORIZED = 60006;
  /** The agent was destroyed before the command completed. */
  public static final int ERROR_DESTROYED = 60007;
  /** Entity upload is not set up: no namespace or signing key (config {@code entity} section or builder). */
  public static final int ERROR_ENTITY_NOT_CONFIGURED = 60008;
  /** The connection dropped while a write awaited its result. */
  public static final int ERROR_CONNECTION_LOST = 60009;
  /**
   * Reconnecting gave up after the bounded number of attempts; it resumes when the network comes back
   * or at the next {@link #CMD_WRITE}.
   */
  public static final int ERROR_RECONNECT_GAVE_UP = 60010;

  /** The name of {@code msgType} for messages: {@code CMD_SYNC}, or {@code msgType 99}. */
  static String commandName(int msgType) {
    switch (msgType) {
      case CMD_WRITE:
        return "CMD_WRITE";
      case CMD_SET_PARAMS:
        return "CMD_SET_PARAMS";
      case CMD_SYNC:
        return "CMD_SYNC";
      case CMD_QUERY_SYNC_STATUS:
        return "CMD_QUERY_SYNC_STATUS";
      default:
        return "msgType " + msgType;
    }
  }
}
