package dev.voicelink.interact;

import org.jspecify.annotations.Nullable;

/**
 * Why the interaction channel's connection ended, and whether the channel tries again by itself: what
 * {@link InteractionChannel.Listener#onDisconnected} is told. An immutable value; its {@link #detail()}
 * never holds a token. Apps' tests make them with {@code voicelink-fixtures}.
 */
public final class Disconnect {
  /** What ended the connection (or the attempt to open it). */
  public enum Cause {
    /**
     * The token source has no token: the device was never authorized, or its authorization was
     * removed. Not retried: run the device flow first.
     */
    NOT_SIGNED_IN(true),
    /**
     * The token source was refused by the authorization server, or the channel's server rejected the
     * access token twice in a row (HTTP 401, once more after a refresh). Not retried.
     */
    TOKEN_REFUSED(true),
    /** The token source failed for a reason that may pass (a network error while refreshing). */
    TOKEN_UNAVAILABLE(false),
    /** The server answered the upgrade with an HTTP error other than 401. */
    UPGRADE_REFUSED(false),
    /** The server closed an open socket. */
    CLOSED_BY_SERVER(false),
    /** The network failed: refused connection, reset, timeout, or a ping without a pong. */
    NETWORK(false),
    /**
     * The server's first message was not a readable {@code connected} message, or none came within
     * the {@linkplain InteractionChannel.Builder#greetingTimeout greeting timeout}.
     */
    PROTOCOL(false);

    private final boolean needsAuthorization;

    Cause(boolean needsAuthorization) {
      this.needsAuthorization = needsAuthorization;
    }

    /** Whether the device must be authorized again before a connection can succeed. */
    public boolean needsAuthorization() {
      return needsAuthorization;
    }
  }

  private final Cause cause;
  private final String detail;
  private final boolean reconnecting;
  private final int lastSeq;
  private final long retryAfterMillis;

  Disconnect(Cause cause, String detail, boolean reconnecting, int lastSeq, long retryAfterMillis) {
    this.cause = cause;
    this.detail = detail;
    this.reconnecting = reconnecting;
    this.lastSeq = lastSeq;
    this.retryAfterMillis = retryAfterMillis;
  }

  /** What ended the connection. */
  public Cause cause() {
    return cause;
  }

  /**
   * A short human-readable account of it for logs, such as {@code HTTP 503 on upgrade} or {@code closed
   * by server (1001 going away)}. Its wording may change; decide on {@link #cause()}.
   */
  public String detail() {
    return detail;
  }

  /**
   * Whether the channel will try again by itself: at once after its backoff, or, while reconnecting
   * is {@linkplain InteractionChannel#pauseReconnecting() paused} (the network is gone), once it is
   * resumed. False when the cause {@linkplain Cause#needsAuthorization() needs authorization} or the
   * bounded number of attempts is used up: {@link InteractionChannel#connect()} starts again.
   */
  public boolean reconnecting() {
    return reconnecting;
  }

  /**
   * The sequence number of the last write made before the connection ended, 0 if the channel has
   * made none. Writes numbered up to it that had no answer will get none (send them again if they
   * must be done); a write numbered above it was made on a later connection, and its answer comes
   * from there. Sequence numbers grow across a channel's connections, so this tells the two apart
   * even when a listener hears of the loss after the channel connected again and took a new write.
   */
  public int lastSeq() {
    return lastSeq;
  }

  /**
   * How long the server asked the client to wait before its next attempt, in milliseconds: the
   * {@code Retry-After} of a refused upgrade (a 429 or a 5xx), capped as the reconnect backoff caps
   * it (60 s by default); 0 when it asked for no wait. The channel waits at least this long before it
   * tries again, also when it is resumed after a {@linkplain InteractionChannel#pauseReconnecting()
   * pause} or {@linkplain InteractionChannel#connect() connected} again after giving up. An app that
   * connects another channel to the same server meanwhile should wait it out too: the server is not
   * ready sooner for a new channel.
   */
  public long retryAfterMillis() {
    return retryAfterMillis;
  }

  @Override public boolean equals(@Nullable Object o) {
    if (!(o instanceof Disconnect)) return false;
    Disconnect that = (Disconnect) o;
    return cause == that.cause && detail.equals(that.detail) && reconnecting == that.reconnecting
        && lastSeq == that.lastSeq && retryAfterMillis == that.retryAfterMillis;
  }

  @Override public int hashCode() {
    return (((cause.hashCode() * 31 + detail.hashCode()) * 31 + (reconnecting ? 1 : 0)) * 31 + lastSeq)
        * 31 + (int) (retryAfterMillis ^ (retryAfterMillis >>> 32));
  }

  @Override public String toString() {
    return "Disconnect{" + cause + ": " + detail + (reconnecting ? ", reconnecting" : ", giving up")
        + ", last seq " + lastSeq + (retryAfterMillis > 0 ? ", retry after " + retryAfterMillis + " ms" : "")
        + "}";
  }
}
