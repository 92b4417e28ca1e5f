package dev.voicelink.testing;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * A misbehaviour the server shows on one endpoint, for testing a client's resilience. Immutable.
 *
 * <p>A faulted request is recorded in the journal but never reaches the endpoint's logic, so it changes
 * no state (except {@link #delay(long)} and {@link #holdUntil}, which answer normally later). Apply with
 * {@code server.faults().on(Endpoint.TOKEN, Fault.status(503).retryAfter(1).times(2))}.
 */
public final class Fault {
  enum Kind { STATUS, DISCONNECT_AT_START, DISCONNECT_MID_BODY, DELAY, HOLD, MALFORMED_JSON, HTML_ERROR_PAGE, EMPTY_BODY }

  /** The longest a {@link #holdUntil} fault holds an answer, so that a test that forgets it ends. */
  static final long MAX_HOLD_SECONDS = 30;

  final Kind kind;
  final int status;
  final long retryAfterSeconds;
  final long delayMillis;
  final int times;
  final @Nullable CountDownLatch release;

  private Fault(Kind kind, int status, long retryAfterSeconds, long delayMillis, int times,
      @Nullable CountDownLatch release) {
    this.kind = kind;
    this.status = status;
    this.retryAfterSeconds = retryAfterSeconds;
    this.delayMillis = delayMillis;
    this.times = times;
    this.release = release;
  }

  private Fault(Kind kind, int status, long retryAfterSeconds, long delayMillis, int times) {
    this(kind, status, retryAfterSeconds, delayMillis, times, null);
  }

  /** Answers with this HTTP status (e.g. 503) and a small JSON body. */
  public static Fault status(int code) {
    if (code < 200 || code > 599) throw new IllegalArgumentException("code must be an HTTP status 200..599; was: " + code);
    return new Fault(Kind.STATUS, code, -1, 0, -1);
  }

  /** Reads the request, then closes the connection without answering. */
  public static Fault disconnectAtStart() {
    return new Fault(Kind.DISCONNECT_AT_START, 200, -1, 0, -1);
  }

  /** Sends a 200 with headers and half a JSON body, then closes the connection. */
  public static Fault disconnectMidBody() {
    return new Fault(Kind.DISCONNECT_MID_BODY, 200, -1, 0, -1);
  }

  /** Waits this long (real time) before answering normally; closing the server ends the wait. */
  public static Fault delay(long millis) {
    if (millis < 0) throw new IllegalArgumentException("millis must be >= 0; was: " + millis);
    return new Fault(Kind.DELAY, 200, -1, millis, -1);
  }

  /**
   * Handles the call at once (its effects happen, as on a server that is slow to answer) but sends
   * the answer only once {@code release} opens, at most 30 s of real time later (closing the server
   * opens it too): a test can act while the call is in flight, on a barrier rather than a guessed
   * delay.
   */
  public static Fault holdUntil(CountDownLatch release) {
    if (release == null) throw new IllegalArgumentException("release must not be null");
    return new Fault(Kind.HOLD, 200, -1, 0, -1, release);
  }

  /** A 200 whose JSON body is cut off. */
  public static Fault malformedJson() {
    return new Fault(Kind.MALFORMED_JSON, 200, -1, 0, -1);
  }

  /** A 502 HTML page, as a proxy in front of the platform would send. */
  public static Fault htmlErrorPage() {
    return new Fault(Kind.HTML_ERROR_PAGE, 502, -1, 0, -1);
  }

  /** A 200 with an empty body. */
  public static Fault emptyBody() {
    return new Fault(Kind.EMPTY_BODY, 200, -1, 0, -1);
  }

  /** Adds a {@code Retry-After} header (seconds) to a {@link #status(int)} fault. */
  public Fault retryAfter(long seconds) {
    if (kind != Kind.STATUS) throw new IllegalStateException("retryAfter applies to Fault.status(...) only");
    if (seconds < 0) throw new IllegalArgumentException("seconds must be >= 0; was: " + seconds);
    return new Fault(kind, status, seconds, delayMillis, times, release);
  }

  /** Applies the fault to the next {@code n} calls only, then turns it off. Default: until cleared. */
  public Fault times(int n) {
    if (n < 1) throw new IllegalArgumentException("n must be >= 1; was: " + n);
    return new Fault(kind, status, retryAfterSeconds, delayMillis, n, release);
  }

  @Override public String toString() {
    return "Fault{" + kind + (kind == Kind.STATUS ? " " + status : "")
        + (kind == Kind.DELAY ? " " + TimeUnit.MILLISECONDS.toMillis(delayMillis) + "ms" : "")
        + (times > 0 ? ", times=" + times : "") + "}";
  }
}
