package dev.voicelink.samples.speaker;

import dev.voicelink.auth.TokenSource;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.interact.Disconnect;
import dev.voicelink.interact.InteractionChannel;
import dev.voicelink.interact.InteractionResult;
import java.io.IOException;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** The interaction channel with blocking calls, as a command-line session wants it. */
final class DemoChannel implements AutoCloseable {
  private static final long ANSWER_TIMEOUT_SECONDS = 10;
  private static final long GREETING_TIMEOUT_MILLIS = 10_000;
  private static final long RESULT_TIMEOUT_MILLIS = 30_000;

  private final InteractionChannel channel;
  private final BlockingQueue<Object> news = new LinkedBlockingQueue<>();

  /**
   * A channel on {@code client}, whose clock runs {@code speed} times faster than real time. The
   * greeting and the results come over a real socket, so their timeouts are scaled back to the
   * defaults in real time, as the user code's lifetime is.
   */
  DemoChannel(VoiceLinkClient client, TokenSource tokens, double speed) {
    this.channel = InteractionChannel.builder(client, tokens)
        .maxReconnectAttempts(2)
        .greetingTimeout((long) (GREETING_TIMEOUT_MILLIS * speed), TimeUnit.MILLISECONDS)
        .resultTimeout((long) (RESULT_TIMEOUT_MILLIS * speed), TimeUnit.MILLISECONDS)
        .listener(new InteractionChannel.Listener() {
          @Override public void onConnected(String uid) {
            news.add(new Connected(uid));
          }

          @Override public void onResult(InteractionResult result) {
            news.add(result);
          }

          @Override public void onWriteError(int seq, String code, String description) {
            news.add(new IOException("write " + seq + " refused: " + code + " " + description));
          }

          @Override public void onDisconnected(Disconnect disconnect) {
            if (!disconnect.reconnecting()) {
              news.add(new IOException("interaction channel lost: " + disconnect.detail()));
            }
          }
        })
        .build();
  }

  /** Connects and returns the user's auth_id that the server names. */
  String connect() throws IOException, InterruptedException {
    channel.connect();
    return next(Connected.class).uid;
  }

  /** Writes {@code text} and returns its result. */
  InteractionResult say(String text, String persParam)
      throws IOException, InterruptedException {
    int seq = channel.writeText(text, persParam);
    InteractionResult result = next(InteractionResult.class);
    if (result.seq() != seq) throw new IOException("result for write " + result.seq()
        + " arrived while waiting for write " + seq);
    return result;
  }

  private <T> T next(Class<T> type) throws IOException, InterruptedException {
    Object item = news.poll(ANSWER_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    if (item == null) throw new IOException("no answer from the interaction channel in "
        + ANSWER_TIMEOUT_SECONDS + " s");
    if (item instanceof IOException) throw (IOException) item;
    if (!type.isInstance(item)) throw new IOException("unexpected " + item + " from the channel");
    return type.cast(item);
  }

  @Override public void close() {
    channel.close();
  }

  private static final class Connected {
    final String uid;

    Connected(String uid) {
      this.uid = uid;
    }
  }
}
