package dev.voicelink.core;

import dev.voicelink.core.internal.Redact;
import java.io.IOException;
import org.jspecify.annotations.Nullable;

/**
 * How a {@link VoiceLinkCall} ended: with a {@linkplain #value() value}, cancelled, or with a
 * {@linkplain #failure() failure}. Exactly one of {@link #isSuccess()}, {@link #isCancelled()} and
 * {@link #isFailure()} is true.
 *
 * <pre>{@code
 * call.enqueue(result -> {
 *   if (result.isSuccess()) {
 *     show(result.value());
 *   } else if (result.isFailure()) {
 *     showError(result.failure());    // IOException, ServerRefusalException or IllegalArgumentException
 *   }                                 // cancelled: the screen is gone, nothing to show
 * });
 * }</pre>
 *
 * <p>The factories make results for tests of code that consumes them. Immutable and thread-safe.
 *
 * @param <T> what the operation produces
 */
public final class CallResult<T> {
  private final @Nullable T value;
  private final @Nullable Exception failure;
  private final boolean cancelled;

  private CallResult(@Nullable T value, @Nullable Exception failure, boolean cancelled) {
    this.value = value;
    this.failure = failure;
    this.cancelled = cancelled;
  }

  /** A call that produced {@code value}. */
  public static <T> CallResult<T> success(T value) {
    if (value == null) throw new IllegalArgumentException("value must not be null");
    return new CallResult<>(value, null, false);
  }

  /**
   * A call that failed with {@code failure}: an {@link IOException}, a {@link ServerRefusalException}
   * or a {@link RuntimeException} (input found invalid while the call ran).
   */
  public static <T> CallResult<T> failure(Exception failure) {
    if (failure == null) throw new IllegalArgumentException("failure must not be null");
    if (failure instanceof CallCancelledException) return cancelled();
    if (!(failure instanceof IOException || failure instanceof ServerRefusalException
        || failure instanceof RuntimeException)) {
      throw new IllegalArgumentException("failure must be an IOException, a"
          + " ServerRefusalException or a RuntimeException; was " + failure.getClass().getName());
    }
    return new CallResult<>(null, failure, false);
  }

  /** A call that was cancelled before it ended. */
  public static <T> CallResult<T> cancelled() {
    return new CallResult<>(null, null, true);
  }

  /** True when the call produced its value. */
  public boolean isSuccess() {
    return !cancelled && failure == null;
  }

  /** True when the call was cancelled (or its client closed) before it ended. */
  public boolean isCancelled() {
    return cancelled;
  }

  /** True when the call failed; {@link #failure()} says why. */
  public boolean isFailure() {
    return failure != null;
  }

  /**
   * The value of a successful call.
   *
   * @throws IllegalStateException if the call failed or was cancelled
   */
  public T value() {
    if (value == null) {
      throw new IllegalStateException("the call has no value: it " + (cancelled ? "was cancelled"
          : "failed with " + failure));
    }
    return value;
  }

  /** Why the call failed, or null when it succeeded or was cancelled. */
  public @Nullable Exception failure() {
    return failure;
  }

  /**
   * The value, or the failure thrown as {@link VoiceLinkCall#execute()} would throw it.
   *
   * @throws CallCancelledException if the call was cancelled
   */
  public T get() throws IOException, ServerRefusalException {
    if (cancelled) throw new CallCancelledException();
    Exception e = failure;
    if (e instanceof IOException) throw (IOException) e;
    if (e instanceof ServerRefusalException) throw (ServerRefusalException) e;
    if (e instanceof RuntimeException) throw (RuntimeException) e;
    return value();
  }

  /**
   * Says how the call ended. A text value (an access token, say) shows only as its fingerprint, so
   * that logging a result never shows a secret; the SDK's other values redact their own secrets.
   */
  @Override public String toString() {
    return cancelled ? "CallResult{cancelled}"
        : failure != null ? "CallResult{failure=" + failure + "}"
        : "CallResult{value=" + (value instanceof CharSequence
            ? Redact.secret(value.toString()) : String.valueOf(value)) + "}";
  }
}
