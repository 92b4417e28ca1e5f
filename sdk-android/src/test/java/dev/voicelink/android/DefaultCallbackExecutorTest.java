package dev.voicelink.android;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import android.os.Build;
import android.os.Looper;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.core.internal.ClientCore;
import java.util.ArrayList;
import java.util.concurrent.Executor;
import java.util.Collections;
import java.util.List;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.RobolectricTestRunner;
import org.robolectric.annotation.LooperMode;
import org.robolectric.shadow.api.Shadow;
import org.robolectric.shadows.ShadowLooper;

// The default callback executor of a VoiceLinkClient on Android. Runs once per SDK level of robolectric.properties (21, 28, 35). The main looper is paused, so
// nothing posted runs until the test drives it with idle(): that is what makes "always posts" visible.
@RunWith(RobolectricTestRunner.class)
@LooperMode(LooperMode.Mode.PAUSED)
public final class DefaultCallbackExecutorTest {
  // A client built without callbackExecutor finds Android's main thread by itself.
  private final Executor executor =
      ClientCore.of(VoiceLinkClient.builder().build()).callbackExecutor();
  private final List<String> ran = Collections.synchronizedList(new ArrayList<String>());
  private final List<Thread> threads = Collections.synchronizedList(new ArrayList<Thread>());

  @Test
  public void tasksFromBackgroundThreadRunOnMainThreadInPostingOrder() throws Exception {
    Thread background = new Thread(new Runnable() {
      @Override public void run() {
        for (int i = 0; i < 50; i++) {
          executor.execute(record("task-" + i));
        }
      }
    }, "background-poster");
    background.start();
    background.join();

    assertThat(ran).as("nothing runs before the main looper does").isEmpty();

    mainLooper().idle();

    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      expected.add("task-" + i);
    }
    assertThat(ran).containsExactlyElementsOf(expected);
    assertThat(threads).hasSize(50).allSatisfy(t -> assertThat(t).isSameAs(Looper.getMainLooper().getThread()));
    assertThat(Build.VERSION.SDK_INT).isIn(21, 28, 35);
  }

  @Test
  public void taskSubmittedOnMainThreadIsPostedNotRunInline() throws Exception {
    Thread background = new Thread(new Runnable() {
      @Override public void run() {
        executor.execute(record("from-background"));
      }
    }, "background-poster");
    background.start();
    background.join();

    // On the main thread now: running inline would let this task overtake the one posted earlier.
    assertThat(Looper.myLooper()).isSameAs(Looper.getMainLooper());
    executor.execute(record("from-main"));
    assertThat(ran).isEmpty();

    mainLooper().idle();

    assertThat(ran).containsExactly("from-background", "from-main");
  }

  @Test
  public void nullTaskIsRejectedAtOnce() {
    assertThatThrownBy(() -> executor.execute(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("command == null");
    assertThat(mainLooper().isIdle()).isTrue();
  }

  private Runnable record(final String name) {
    return new Runnable() {
      @Override public void run() {
        threads.add(Thread.currentThread());
        ran.add(name);
      }
    };
  }

  // Shadows.shadowOf(Looper) does not compile against the API-21 framework the module builds with.
  private static ShadowLooper mainLooper() {
    return Shadow.extract(Looper.getMainLooper());
  }
}
