package dev.voicelink.android;

import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * A command for {@link Agent#sendMessage}: a message type ({@link AgentConstants#CMD_SYNC} and the
 * other {@code CMD_} values), two integer arguments, a params text and optional data bytes, in the
 * shape of the platform's established device SDK.
 *
 * <pre>{@code
 * agent.sendMessage(new AgentMessage(AgentConstants.CMD_WRITE, 0, 0,
 *     "data_type=text,pers_param={\"uid\":\"\"}", "call Zhang San".getBytes(UTF_8)));
 * // the same, each argument named
 * agent.sendMessage(AgentMessage.builder(AgentConstants.CMD_WRITE)
 *     .params("data_type=text,pers_param={\"uid\":\"\"}")
 *     .data("call Zhang San".getBytes(UTF_8))
 *     .build());
 * }</pre>
 *
 * <p>Immutable and thread-safe: the data bytes are copied in and out.
 */
public final class AgentMessage {
  private final int msgType;
  private final int arg1;
  private final int arg2;
  private final String params;
  private final byte @Nullable [] data;

  /** A message; {@code params} null means none, {@code data} null means no data. */
  public AgentMessage(int msgType, int arg1, int arg2, @Nullable String params,
      byte @Nullable [] data) {
    this(data == null ? null : data.clone(), msgType, arg1, arg2, params == null ? "" : params);
  }

  /**
   * A message that keeps {@code data}, which no one else holds: a resource's may be megabytes.
   * Package-private, not private: the builder's call would make javac add a synthetic class.
   */
  AgentMessage(byte @Nullable [] data, int msgType, int arg1, int arg2, String params) {
    this.msgType = msgType;
    this.arg1 = arg1;
    this.arg2 = arg2;
    this.params = params;
    this.data = data;
  }

  /** A builder of a message of {@code msgType}, whose other arguments start as 0, none and none. */
  public static Builder builder(int msgType) {
    return new Builder(msgType);
  }

  /** A builder that starts from this message, to send a variant of it. */
  public Builder newBuilder() {
    return new Builder(msgType).arg1(arg1).arg2(arg2).params(params).ownData(data); // never changed
  }

  public int msgType() {
    return msgType;
  }

  public int arg1() {
    return arg1;
  }

  public int arg2() {
    return arg2;
  }

  /** The params text; empty when none was given. */
  public String params() {
    return params;
  }

  /** A copy of the data bytes, or null when none were given. */
  public byte @Nullable [] data() {
    return data == null ? null : data.clone();
  }

  int dataLength() {
    return data == null ? 0 : data.length;
  }

  byte @Nullable [] dataUnsafe() {
    return data;
  }

  @Override public boolean equals(@Nullable Object other) {
    if (!(other instanceof AgentMessage)) return false;
    AgentMessage that = (AgentMessage) other;
    return msgType == that.msgType && arg1 == that.arg1 && arg2 == that.arg2
        && params.equals(that.params) && Arrays.equals(data, that.data);
  }

  @Override public int hashCode() {
    return Arrays.hashCode(new Object[] {msgType, arg1, arg2, params}) * 31 + Arrays.hashCode(data);
  }

  /** Shows the data's length, never its content (it may be a user's audio or contacts). */
  @Override public String toString() {
    return "AgentMessage{msgType=" + msgType + ", arg1=" + arg1 + ", arg2=" + arg2
        + ", params=" + params + ", data=" + (data == null ? "none" : data.length + " bytes") + "}";
  }

  /** Builds an {@link AgentMessage}. Not thread-safe. */
  public static final class Builder {
    private final int msgType;
    private int arg1;
    private int arg2;
    private String params = "";
    private byte @Nullable [] data;

    Builder(int msgType) {
      this.msgType = msgType;
    }

    public Builder arg1(int arg1) {
      this.arg1 = arg1;
      return this;
    }

    public Builder arg2(int arg2) {
      this.arg2 = arg2;
      return this;
    }

    public Builder params(@Nullable String params) {
      this.params = params == null ? "" : params;
      return this;
    }

    public Builder data(byte @Nullable [] data) {
      return ownData(data == null ? null : data.clone());
    }

    /** Takes {@code data}, which the caller made for this message and keeps no reference to. */
    Builder ownData(byte @Nullable [] data) {
      this.data = data;
      return this;
    }

    /** The message; later changes to this builder do not change it. */
    public AgentMessage build() {
      return new AgentMessage(data, msgType, arg1, arg2, params);
    }
  }
}
