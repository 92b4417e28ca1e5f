package dev.voicelink.core.internal;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Daemon threads with a recognisable name: they show in traces and never keep a JVM alive. */
public final class NamedThreads implements ThreadFactory {
  private final String prefix;
  private final AtomicInteger count = new AtomicInteger();

  public NamedThreads(String prefix) {
    this.prefix = prefix;
  }

  @Override public Thread newThread(Runnable runnable) {
    int n = count.incrementAndGet();
    Thread thread = new Thread(runnable, n == 1 ? prefix : prefix + "-" + n);
    thread.setDaemon(true);
    return thread;
  }
}
