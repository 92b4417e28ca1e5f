package dev.voicelink.auth;

import java.io.File;
import java.io.IOException;

/**
 * Child process of the crash-safety test: saves records {@code first, first + 1, ...} until it is
 * killed, and says {@code saved <first>} once the first save returned.
 */
public final class FileTokenStoreWriter {
  private FileTokenStoreWriter() {
  }

  /** Record {@code n}: its fields and its length vary with n, so a torn write cannot pass for one. */
  public static TokenRecord recordNumber(long n) {
    return TokenRecord.builder()
        .grant(n % 2 == 0 ? TokenRecord.Grant.DEVICE : TokenRecord.Grant.CLOUD)
        .clientId("client-" + n)
        .accessToken("at-" + n)
        .refreshToken("rt-" + n + "-" + repeat(n))
        .expiresInSeconds(n)
        .createdAtEpochSeconds(n)
        .receivedAtEpochMillis(n)
        .build();
  }

  /**
   * The number of {@code record}; throws unless it is exactly a record {@link #recordNumber} makes,
   * -1 for none.
   */
  public static long numberOf(TokenRecord record) {
    if (record == null) return -1;
    long n = Long.parseLong(record.accessToken().substring("at-".length()));
    if (!record.equals(recordNumber(n))) {
      throw new AssertionError("record " + n + " differs from the one saved: " + record);
    }
    return n;
  }

  private static String repeat(long n) {
    StringBuilder result = new StringBuilder();
    for (long i = 0; i < n % 500; i++) result.append('x');
    return result.toString();
  }

  /**
   * Ends this child when the test that started it is gone. The test holds the child's standard input
   * open and kills the child itself; if the test's JVM dies first (a build stopped mid-run), the pipe
   * closes and the child stops rather than saving for ever.
   */
  public static void exitWhenTheParentIsGone() {
    Thread watcher = new Thread(() -> {
      try {
        while (System.in.read() != -1) {
          // the parent never writes; only the end of the stream matters
        }
      } catch (IOException e) {
        // a pipe that cannot be read is gone as well
      }
      Runtime.getRuntime().halt(0);
    }, "parent-watcher");
    watcher.setDaemon(true);
    watcher.start();
  }

  public static void main(String[] args) throws Exception {
    exitWhenTheParentIsGone();
    FileTokenStore store = new FileTokenStore(new File(args[0]));
    long first = Long.parseLong(args[1]);
    store.save(recordNumber(first));
    System.out.println("saved " + first);
    System.out.flush();
    for (long n = first + 1; ; n++) {
      store.save(recordNumber(n));
    }
  }
}
