package dev.voicelink.android;

import android.os.Looper;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.core.internal.ClientCore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.robolectric.shadow.api.Shadow;
import org.robolectric.shadows.ShadowLooper;

/**
 * An Agent's events as a Robolectric test sees them: give it as both the listener and the
 * {@link Agent.Builder#eventExecutor event executor}. Events are still delivered on the main looper,
 * as in an app; a test waiting for one wakes as soon as the Agent posts it, instead of sleeping.
 */
final class AgentEvents implements AgentListener, Executor {
  /** How long one round waits for a post: tasks due on the virtual clock post nothing themselves. */
  private static final long ROUND_MILLIS = 10;

  private final Executor main = ClientCore.of(VoiceLinkClient.builder().build()).callbackExecutor();
  private final Semaphore posted = new Semaphore(0);
  private final List<AgentEvent> events = new ArrayList<>(); // guarded by this

  @Override public void execute(Runnable task) {
    main.execute(task);
    posted.release();
  }

  @Override public synchronized void onEvent(AgentEvent event) {
    events.add(event);
  }

  synchronized int size() {
    return events.size();
  }

  synchronized List<AgentEvent> all() {
    return new ArrayList<>(events);
  }

  /**
   * Rounds of: {@code step} (moving virtual time), delivering what the main looper holds, looking for
   * an event of {@code type} after index {@code from}, and waiting for the Agent's next post. At most
   * {@code rounds} rounds.
   */
  AgentEvent await(int type, int from, int rounds, Runnable step) throws InterruptedException {
    for (int i = 0; i < rounds; i++) {
      step.run();
      mainLooper().idle();
      AgentEvent found = find(type, from);
      if (found != null) return found;
      posted.tryAcquire(ROUND_MILLIS, TimeUnit.MILLISECONDS);
    }
    throw new AssertionError("no event " + type + " after #" + from + "; saw " + all());
  }

  private synchronized AgentEvent find(int type, int from) {
    for (int j = from; j < events.size(); j++) {
      if (events.get(j).eventType() == type) return events.get(j);
    }
    return null;
  }

  static ShadowLooper mainLooper() {
    return Shadow.extract(Looper.getMainLooper());
  }
}
