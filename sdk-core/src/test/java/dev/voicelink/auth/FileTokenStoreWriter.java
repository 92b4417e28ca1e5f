package dev.voicelink.auth;

import java.io.File;

/** Child process of {@link FileTokenStoreTest}: saves records 0, 1, 2, ... until it is killed. */
public final class FileTokenStoreWriter {
  private FileTokenStoreWriter() {
  }

  static TokenRecord recordNumber(long n) {
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

  // Records of varying length, so that a torn write could not pass for a whole one.
  private static String repeat(long n) {
    StringBuilder result = new StringBuilder();
    for (long i = 0; i < n % 500; i++) result.append('x');
    return result.toString();
  }

  public static void main(String[] args) throws Exception {
    FileTokenStore store = new FileTokenStore(new File(args[0]));
    for (long n = Long.parseLong(args[1]); ; n++) {
      store.save(recordNumber(n));
    }
  }
}
