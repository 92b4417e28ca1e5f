package dev.voicelink.auth;

import dev.voicelink.auth.DeviceFlowOutcome.Kind;
import dev.voicelink.core.CallCancelledException;
import dev.voicelink.core.Cancellable;
import dev.voicelink.core.Clock;
import dev.voicelink.core.Scheduler;
import dev.voicelink.core.internal.Backoff;
import dev.voicelink.core.internal.Log;
import dev.voicelink.core.internal.SerialDelivery;
import java.io.IOException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.Response;

/**
 * One device flow as a state machine: HTTP calls run on OkHttp's dispatcher, waits on the client's
 * scheduler, and every step checks under one lock whether the flow already ended. The outcome goes to
 * {@link Sink}, after every listener call that came before it.
 */
final class DevicePoller implements Cancellable {
  static final long SLOW_DOWN_STEP_MILLIS = TimeUnit.SECONDS.toMillis(5);
  /**
   * How long a poll that went out before the code expired is waited for past the expiry: the server
   * may have taken it in time and issued the token, which is used up then, so its answer is the
   * user's sign-in.
   */
  static final long LATE_ANSWER_MILLIS = TimeUnit.SECONDS.toMillis(10);
  private static final String TAG = "auth";

  private final AuthClient client;
  private final String clientId;
  private final Scheduler scheduler;
  private final Clock clock;
  private final Backoff backoff;
  private final DeviceFlowListener listener;
  /**
   * What the flow decided under {@link #lock}, done in order once the lock is released: listener
   * calls (on the listener's executor) and internal steps (inline, on the delivering thread).
   * Scheduling the next wait after the listener call it follows means a listener has heard of a poll
   * before the next one can start.
   */
  private final SerialDelivery events;
  private final Sink sink;

  private final Object lock = new Object();
  private @Nullable DeviceCode code;
  private long intervalMillis;
  private long deadlineNanos;
  private int polls;
  private int transientFailures;
  /**
   * Why the latest poll failed, while polls fail in a row: the cause of an expiry they ran into, so
   * that an app can tell "nobody approved" from "the polls were failing".
   */
  private @Nullable IOException lastPollFailure;
  private @Nullable Call call;
  /**
   * The flow's one timer: the wait before the next poll (or the code request's retry), or, while a
   * poll is out, the code's deadline, then the wait for a late answer to a poll under way.
   */
  private @Nullable Cancellable wait;
  private @Nullable DeviceFlowOutcome outcome;
  /** Whether {@link #cancel()} came, before or after the outcome; guarded by lock. */
  private boolean silenced;

  /** Receives the outcome, once, after the listener calls before it were handed over. */
  interface Sink {
    void ended(DeviceFlowOutcome outcome);
  }

  DevicePoller(AuthClient client, String clientId, Backoff backoff, DeviceFlowListener listener,
      Executor executor, Sink sink) {
    this.client = client;
    this.clientId = clientId;
    this.scheduler = client.config.scheduler();
    this.clock = client.config.deviceClock();
    this.backoff = backoff;
    this.listener = listener;
    this.events = new SerialDelivery(executor, TAG);
    this.sink = sink;
  }

  /** The listener's executor, serial: news handed to it after the outcome still comes last. */
  Executor events() {
    return events;
  }

  /** Asks for a code; {@code deviceId} is the platform dialect's, null in the standard one. */
  void requestCode(final @Nullable String deviceId) {
    Call next;
    synchronized (lock) {
      if (outcome != null) return;
      next = client.deviceCodeCall(clientId, deviceId);
      call = next;
    }
    Log.debug(TAG, "requesting a device code for client_id " + clientId);
    next.enqueue(new Callback() {
      @Override public void onResponse(Call call, Response response) {
        try {
          codeIssued(client.readDeviceCode(response));
        } catch (AuthorizationException e) {
          finish(DeviceFlowOutcome.ended(Kind.FAILED, e));
        } catch (MalformedResponseException e) {
          Log.warn(TAG, e.getMessage(), null);
          finish(DeviceFlowOutcome.ended(Kind.FAILED, e));
        } catch (IOException e) {
          retryCodeRequest(deviceId, e);
        } finally {
          events.flush();
        }
      }

      @Override public void onFailure(Call call, IOException e) {
        retryCodeRequest(deviceId, e);
        events.flush();
      }
    });
  }

  private void retryCodeRequest(final @Nullable String deviceId, IOException failure) {
    synchronized (lock) {
      if (outcome != null) return;
      transientFailures++;
      if (!backoff.allows(transientFailures)) {
        finish(DeviceFlowOutcome.ended(Kind.FAILED, failure));
        return;
      }
      long delay = backoff.honouringRetryAfter(failure, backoff.delayMillis(transientFailures));
      Log.info(TAG, "device code request failed (" + failure.getMessage() + "); retry "
          + transientFailures + " in " + delay + " ms");
      wait = scheduler.schedule(() -> requestCode(deviceId), delay, TimeUnit.MILLISECONDS);
    }
  }

  /** Starts polling for {@code issued}: the first poll waits one interval, as every later one. */
  void codeIssued(final DeviceCode issued) {
    synchronized (lock) {
      if (outcome != null) return;
      code = issued;
      transientFailures = 0;
      intervalMillis = issued.intervalMillis();
      deadlineNanos = issued.receivedAtNanos() + TimeUnit.SECONDS.toNanos(issued.expiresInSeconds());
      Log.info(TAG, "device code issued: " + issued);
      tell(() -> listener.onCodeIssued(issued));
      waitThenPoll(intervalMillis);
    }
    events.flush();
  }

  private void waitThenPoll(final long delayMillis) {
    // caller holds lock; the wait starts once the listener has been told of what came before
    events.enqueueInline(() -> {
      synchronized (lock) {
        if (outcome != null) return;
        long remainingNanos = deadlineNanos - clock.monotonicNanos();
        if (TimeUnit.MILLISECONDS.toNanos(delayMillis) >= remainingNanos) {
          // The next poll would come after the code expired: end the flow when it does.
          wait = scheduler.schedule(this::expire, Math.max(0, remainingNanos),
              TimeUnit.NANOSECONDS);
        } else {
          wait = scheduler.schedule(this::poll, delayMillis, TimeUnit.MILLISECONDS);
        }
      }
    });
  }

  /**
   * The code expired with poll {@code call} out. One not handed to the dispatcher yet, or still in
   * its queue, is cancelled with the flow; one under way gets {@link #LATE_ANSWER_MILLIS} more for
   * its answer, which ends the flow as {@link #polled} reads it (a token is taken; pending, slow_down
   * or a transient failure end it EXPIRED), and is cancelled after that time.
   */
  private void deadlineReached() {
    synchronized (lock) {
      if (outcome != null) return;
      Call out = call;
      if (out != null && !client.isWaitingToBeSent(out)) {
        Log.info(TAG, "the user code expired with poll " + polls + " out; waiting up to "
            + LATE_ANSWER_MILLIS + " ms for its answer");
        wait = scheduler.schedule(this::expire, LATE_ANSWER_MILLIS, TimeUnit.MILLISECONDS);
        return;
      }
    }
    expire();
  }

  private void expire() {
    synchronized (lock) {
      if (outcome != null) return;
      expired();
    }
    events.flush();
  }

  private void expired() {
    // caller holds lock
    Log.info(TAG, "the user code expired after " + code.expiresInSeconds() + " s"
        + (lastPollFailure != null ? ", the last " + transientFailures + " polls failed" : "")
        + (call != null ? "; the poll still out is cancelled" : ""));
    finish(DeviceFlowOutcome.ended(Kind.EXPIRED, lastPollFailure));
  }

  private void poll() {
    Call next;
    final int pollNumber;
    synchronized (lock) {
      if (outcome != null) return;
      long remainingNanos = deadlineNanos - clock.monotonicNanos();
      if (remainingNanos <= 0) {
        next = null;
        pollNumber = 0;
      } else {
        pollNumber = ++polls;
        next = client.devicePollCall(clientId, code);
        call = next;
        // Neither the dispatcher's queue nor a server that never answers (the app's client may have
        // no read timeout) holds the flow long past the deadline (deadlineReached).
        wait = scheduler.schedule(this::deadlineReached, remainingNanos, TimeUnit.NANOSECONDS);
      }
    }
    if (next == null) {
      expire();
      return;
    }
    next.enqueue(new Callback() {
      @Override public void onResponse(Call call, Response response) {
        polled(pollNumber, client.read(response));
        events.flush();
      }

      @Override public void onFailure(Call call, IOException e) {
        polled(pollNumber, new AuthClient.Answer(0, null, null, "", e, -1, false, false));
        events.flush();
      }
    });
  }

  private void polled(int pollNumber, AuthClient.Answer answer) {
    synchronized (lock) {
      if (outcome != null) return;
      call = null;
      // The answer came before the deadline: its timer goes, and a token in the answer is taken.
      if (wait != null) wait.cancel();
      if (answer.hasToken()) {
        // The device code was exchanged: it is never polled again, whatever the answer held.
        try {
          TokenRecord record = client.tokenRecord(answer, TokenRecord.Grant.DEVICE, clientId, true);
          Log.info(TAG, "device authorized after " + pollNumber + " polls: " + record);
          finish(DeviceFlowOutcome.authorized(record));
        } catch (IOException e) {
          Log.warn(TAG, e.getMessage(), null);
          finish(DeviceFlowOutcome.ended(Kind.FAILED, e));
        }
        return;
      }
      if (answer.refusedWithoutError) {
        MalformedResponseException failure = AuthClient.notAnOAuthAnswer(answer, "token endpoint");
        Log.warn(TAG, failure.getMessage(), null);
        finish(DeviceFlowOutcome.ended(Kind.FAILED, failure));
        return;
      }
      String error = answer.error;
      boolean onlyAnotherPoll = answer.isTransient() || "authorization_pending".equals(error)
          || "slow_down".equals(error);
      if (answer.isTransient()) {
        transientFailures++;
        lastPollFailure = answer.transientFailure("poll");
      } else {
        transientFailures = 0;
        lastPollFailure = null;
      }
      if (onlyAnotherPoll && clock.monotonicNanos() - deadlineNanos >= 0) {
        // Came at the deadline, racing its timer: no next poll to announce, the code has expired.
        expired();
        return;
      }
      if (lastPollFailure != null) {
        retryPoll(pollNumber, lastPollFailure);
        return;
      }
      if (client.dialect.codeExpired(error)) {
        Log.info(TAG, "the server no longer knows the device code (" + error + ")");
        finish(DeviceFlowOutcome.ended(Kind.EXPIRED, new AuthorizationException(error, answer.message)));
        return;
      }
      switch (error) {
        case "authorization_pending":
          pending(pollNumber, error, answer.retryAfterMillis);
          break;
        case "slow_down":
          intervalMillis += SLOW_DOWN_STEP_MILLIS;
          pending(pollNumber, error, answer.retryAfterMillis);
          break;
        case "access_denied":
        case "authorization_declined": // Azure AD's name for it
          Log.info(TAG, "the user refused the device");
          finish(DeviceFlowOutcome.ended(Kind.DENIED,
              new AuthorizationException(error, answer.message)));
          break;
        case "expired_token":
          Log.info(TAG, "the server says the user code expired");
          finish(DeviceFlowOutcome.ended(Kind.EXPIRED,
              new AuthorizationException(error, answer.message)));
          break;
        default:
          Log.warn(TAG, "the server refused the poll: " + error, null);
          finish(DeviceFlowOutcome.ended(Kind.FAILED,
              new AuthorizationException(error, answer.message)));
          break;
      }
    }
  }

  /**
   * Another poll after the interval, or after the answer's Retry-After when that is longer (a rate
   * limiter's 429 that carries {@code slow_down}), up to the backoff's cap.
   */
  private void pending(final int pollNumber, final String result, long retryAfterMillis) {
    final long delay = backoff.honouringRetryAfter(retryAfterMillis, intervalMillis);
    Log.debug(TAG, "poll " + pollNumber + ": " + result + "; next in " + delay + " ms");
    tell(() -> listener.onPoll(pollNumber, result, delay));
    waitThenPoll(delay);
  }

  /**
   * Another poll after a transient failure, however many came before it: the code's expiry bounds
   * the flow (docs/device-authorization.md, "Polling rules"), and a user may be approving
   * while the device's network is down.
   */
  private void retryPoll(final int pollNumber, IOException failure) {
    // Never faster than the interval: the backoff, capped, comes on top of it.
    final long delay = backoff.honouringRetryAfter(failure,
        intervalMillis + backoff.delayMillis(transientFailures));
    Log.info(TAG, "poll " + pollNumber + " failed (" + failure.getMessage() + "); retry "
        + transientFailures + " in " + delay + " ms");
    tell(() -> listener.onPoll(pollNumber, "transient_failure", delay));
    waitThenPoll(delay);
  }

  /**
   * Queues {@code news} for the listener, dropped if the flow is cancelled before its turn: an app
   * that cancels in {@code onStop} is told nothing after that, though the news was queued before.
   */
  private void tell(Runnable news) {
    events.enqueue(() -> {
      if (!isSilenced()) news.run();
    });
  }

  /** Cancelled, even after the flow ended: news not told yet is not told, the app has left. */
  private boolean isSilenced() {
    synchronized (lock) {
      return silenced;
    }
  }

  private void finish(final DeviceFlowOutcome result) {
    Call inFlight;
    synchronized (lock) {
      if (outcome != null) return;
      outcome = result;
      if (wait != null) wait.cancel();
      inFlight = call;
      call = null;
      // after the listener calls before it have been handed to the executor
      events.enqueueInline(() -> sink.ended(result));
    }
    if (inFlight != null) inFlight.cancel();
  }

  @Override public void cancel() {
    synchronized (lock) {
      silenced = true;
      if (outcome != null) return;
      Log.info(TAG, "device flow cancelled");
    }
    // The call that runs this flow already ended as cancelled; this outcome only stops the flow.
    finish(DeviceFlowOutcome.ended(Kind.FAILED, new CallCancelledException()));
    events.flush();
  }

  @Override public boolean isCancelled() {
    synchronized (lock) {
      return outcome != null && outcome.failure() instanceof CallCancelledException;
    }
  }
}
