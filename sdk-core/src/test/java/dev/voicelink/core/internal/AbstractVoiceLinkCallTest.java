package dev.voicelink.core.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voicelink.core.CallCancelledException;
import dev.voicelink.core.CallResult;
import dev.voicelink.core.KotlinThrows;
import dev.voicelink.core.LogCapture;
import dev.voicelink.core.VoiceLinkCall;
import dev.voicelink.core.VoiceLinkClient;
import java.io.IOException;
import java.lang.reflect.Field;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class AbstractVoiceLinkCallTest {
  /**
   * A cancel that lands after enqueue marked the call started but before it registered with the client
   * ends the call at once; the registration that follows must not keep the ended call as running.
   */
  @Test void aCancelBetweenStartAndRegistrationLeavesNoRunningCall() throws Exception {
    VoiceLinkClient client = VoiceLinkClient.builder().callbackExecutor(Runnable::run).build();
    ClientCore core = ClientCore.of(client);
    List<CallResult<String>> results = new CopyOnWriteArrayList<>();
    AbstractVoiceLinkCall<String> call = new AbstractVoiceLinkCall<String>(core) {
      @Override protected void start() {
        succeed("ran");
      }
    };
    Object registry = registryLock(core);
    Thread enqueuer;
    synchronized (registry) {
      enqueuer = new Thread(() -> call.enqueue(results::add), "enqueuer");
      enqueuer.start();
      awaitBlocked(enqueuer); // started, and waiting for the registry this thread holds
      call.cancel(); // the registry's lock is re-entrant for this thread
      assertThat(results).hasSize(1);
      assertThat(results.get(0).isCancelled()).isTrue();
    }
    enqueuer.join(10_000);

    assertThat(results).as("one callback, the cancellation").hasSize(1);
    assertThat(core.runningCalls()).isZero();
    client.close();
  }

  /**
   * The call ended and its callback waits on the callback executor (Android's main thread, busy):
   * a cancel then, as a screen's onStop makes, turns what the callback hears into the cancellation.
   * A cancel after the callback ran changes nothing.
   */
  @Test void aCancelBeforeTheCallbackRunsIsWhatTheCallbackHears() throws Exception {
    List<Runnable> mainThread = new CopyOnWriteArrayList<>();
    VoiceLinkClient client = VoiceLinkClient.builder().callbackExecutor(mainThread::add).build();
    List<CallResult<String>> results = new CopyOnWriteArrayList<>();
    AbstractVoiceLinkCall<String> cancelled = endedAtOnce(client);
    AbstractVoiceLinkCall<String> told = endedAtOnce(client);
    cancelled.enqueue(results::add);
    told.enqueue(results::add);
    assertThat(mainThread).as("both ended; their callbacks wait").hasSize(2);

    cancelled.cancel();
    mainThread.get(0).run();
    mainThread.get(1).run();
    told.cancel();

    assertThat(results).hasSize(2);
    assertThat(results.get(0).isCancelled()).isTrue();
    assertThat(cancelled.isCancelled()).isTrue();
    assertThat(results.get(1).value()).isEqualTo("ran");
    assertThat(told.isCancelled()).as("cancelled after its callback ran").isFalse();
    client.close();
  }

  private static AbstractVoiceLinkCall<String> endedAtOnce(VoiceLinkClient client) {
    return new AbstractVoiceLinkCall<String>(ClientCore.of(client)) {
      @Override protected void start() {
        succeed("ran");
      }
    };
  }

  @Test void executeOnAnInterruptedThreadStartsNothing() throws Exception {
    VoiceLinkClient client = VoiceLinkClient.builder().build();
    List<String> started = new CopyOnWriteArrayList<>();
    AbstractVoiceLinkCall<String> call = new AbstractVoiceLinkCall<String>(ClientCore.of(client)) {
      @Override protected void start() {
        started.add("started"); // an upload would be on the wire now
        succeed("ran");
      }
    };
    Thread.currentThread().interrupt();
    try {
      call.execute();
      throw new AssertionError("execute() returned");
    } catch (CallCancelledException expected) {
      assertThat(Thread.interrupted()).as("the interrupt flag stays set").isTrue();
    }
    assertThat(started).isEmpty();
    assertThat(call.isCancelled()).isTrue();
    assertThat(ClientCore.of(client).runningCalls()).isZero();
    client.close();
  }

  @Test void aCallbackThatThrowsACheckedExceptionAsKotlinCanIsLoggedAndTheCallEnds() throws Exception {
    VoiceLinkClient client = VoiceLinkClient.builder().callbackExecutor(Runnable::run).build();
    ClientCore core = ClientCore.of(client);
    AbstractVoiceLinkCall<String> call = new AbstractVoiceLinkCall<String>(core) {
      @Override protected void start() {
        succeed("ran");
      }
    };
    try (LogCapture log = LogCapture.install()) {
      // start() succeeds at once and the callback executor runs on this thread: all within enqueue
      call.enqueue(result -> {
        throw KotlinThrows.checked(new IOException("a Kotlin callback's"));
      });
      assertThat(log.messages("core")).anyMatch(line -> line.startsWith(
          "a call's callback threw; ignored\njava.io.IOException: a Kotlin callback's"));
    }
    assertThat(core.runningCalls()).isZero();
    client.close();
  }


  /**
   * SDK code with a thread of its own (the Android Agent's worker) enqueues with its own callback
   * executor: each outcome, the cancellation too, reaches that executor once and the client's never.
   */
  @Test void aCallEnqueuedWithItsOwnExecutorCallsBackThereOnly() throws Exception {
    List<String> clientDeliveries = new CopyOnWriteArrayList<>();
    VoiceLinkClient client = VoiceLinkClient.builder()
        .callbackExecutor(task -> clientDeliveries.add("the client's executor")).build();
    ClientCore core = ClientCore.of(client);
    List<String> ownDeliveries = new CopyOnWriteArrayList<>();
    List<CallResult<String>> results = new CopyOnWriteArrayList<>();
    Executor own = task -> {
      ownDeliveries.add("own");
      task.run();
    };

    AbstractVoiceLinkCall.enqueue(new AbstractVoiceLinkCall<String>(core) {
      @Override protected void start() {
        succeed("ran");
      }
    }, own, results::add);
    AbstractVoiceLinkCall.enqueue(new AbstractVoiceLinkCall<String>(core) {
      @Override protected void start() {
        fail(new IOException("refused"));
      }
    }, own, results::add);
    AbstractVoiceLinkCall<String> waiting = new AbstractVoiceLinkCall<String>(core) {
      @Override protected void start() {
        // ends only by cancel()
      }
    };
    AbstractVoiceLinkCall.enqueue(waiting, own, results::add);
    waiting.cancel();
    waiting.cancel();

    assertThat(ownDeliveries).hasSize(3);
    assertThat(results).hasSize(3);
    assertThat(results.get(0).value()).isEqualTo("ran");
    assertThat(results.get(1).failure()).hasMessage("refused");
    assertThat(results.get(2).isCancelled()).isTrue();
    assertThat(clientDeliveries).isEmpty();
    assertThat(core.runningCalls()).isZero();
    client.close();
  }

  @Test void onlyTheSdksOwnCallsCanBeEnqueuedWithAnotherExecutor() throws Exception {
    VoiceLinkClient client = VoiceLinkClient.builder().callbackExecutor(Runnable::run).build();
    ClientCore core = ClientCore.of(client);
    VoiceLinkCall<String> foreign = new VoiceLinkCall<String>() {
      @Override public String execute() {
        return "foreign";
      }

      @Override public void enqueue(Callback<String> callback) {
        callback.onResult(CallResult.success("foreign"));
      }

      @Override public void cancel() {
      }

      @Override public boolean isCancelled() {
        return false;
      }

      @Override public String toString() {
        return "ForeignCall";
      }
    };
    List<CallResult<String>> results = new CopyOnWriteArrayList<>();

    assertThatThrownBy(() -> AbstractVoiceLinkCall.enqueue(foreign, Runnable::run, results::add))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("not a call of the SDK: ForeignCall");
    AbstractVoiceLinkCall<String> once = new AbstractVoiceLinkCall<String>(core) {
      @Override protected void start() {
        succeed("ran");
      }
    };
    AbstractVoiceLinkCall.enqueue(once, Runnable::run, results::add);
    assertThatThrownBy(() -> AbstractVoiceLinkCall.enqueue(once, Runnable::run, results::add))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("the call already ran; make a new one");
    assertThat(results).hasSize(1);
    client.close();
  }

  private static Object registryLock(ClientCore core) throws ReflectiveOperationException {
    Field lock = ClientCore.class.getDeclaredField("lock");
    lock.setAccessible(true);
    return lock.get(core);
  }

  /** Waits (at most 10 s) until {@code thread} is blocked on a monitor: a barrier, not a delay. */
  private static void awaitBlocked(Thread thread) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (thread.getState() != Thread.State.BLOCKED) {
      assertThat(System.nanoTime()).as("the thread blocks on the registry").isLessThan(deadline);
      Thread.yield();
    }
  }
}
