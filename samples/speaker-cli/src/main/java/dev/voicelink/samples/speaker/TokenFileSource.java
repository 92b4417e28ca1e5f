package dev.voicelink.samples.speaker;

import dev.voicelink.auth.FileTokenStore;
import dev.voicelink.auth.TokenManager;
import dev.voicelink.auth.TokenRecord;
import dev.voicelink.auth.TokenSource;
import dev.voicelink.core.VoiceLinkClient;
import java.io.File;
import java.io.IOException;
import java.util.Collections;
import org.jspecify.annotations.Nullable;

/**
 * The token of {@code --token-file}: a token record as {@code login} and {@code cloud-token} write
 * it, or a bare token pasted from elsewhere. With {@code --auth-url} the record is kept alive by a
 * {@link TokenManager}, which refreshes it when it has expired and saves the rotated record back to
 * the file.
 */
final class TokenFileSource {
  private final File file;
  private final @Nullable String authUrl;

  private TokenFileSource(File file, @Nullable String authUrl) {
    this.file = file;
    this.authUrl = authUrl;
  }

  /** Checks the file before anything is sent: readable, and a writable record if it may be refreshed. */
  static TokenFileSource check(File file, @Nullable String authUrl) throws IOException {
    if (authUrl == null) {
      readToken(file);
    } else {
      String unwritable = AuthCommand.tokenFileProblem(file); // a refresh rotates the token
      if (unwritable != null) throw new IllegalArgumentException(unwritable);
      readRecord(file);
    }
    return new TokenFileSource(file, authUrl);
  }

  /** Whether the token may be refreshed, which needs a client with the authorization address. */
  boolean refreshable() {
    return authUrl != null;
  }

  /** A client of {@code builder} that can also refresh the token, if it may be refreshed. */
  VoiceLinkClient client(VoiceLinkClient.Builder builder) {
    if (authUrl == null) return builder.build();
    try {
      return builder.authUrl(authUrl).build();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          e.getMessage().replace("auth_url", "--auth-url (or VOICELINK_AUTH_URL)"), e);
    }
  }

  /**
   * The token, from a manager of the file on {@code client} (made by {@link #client}) if it may be
   * refreshed, read from the file as it is otherwise.
   */
  TokenSource tokens(VoiceLinkClient client) {
    if (authUrl == null) return () -> readToken(file);
    return manager(client);
  }

  /** The manager of the file's record, on {@code client} (made by {@link #client}); if refreshable. */
  TokenManager manager(VoiceLinkClient client) {
    return TokenManager.builder(client).store(new FileTokenStore(file)).build();
  }

  /** The record of the file, to tell afterwards whether a refresh rotated it. */
  TokenRecord record() throws IOException {
    return readRecord(file);
  }

  private static String readToken(File file) throws IOException {
    return isRecord(file) ? readRecord(file).accessToken() : tokenText(file);
  }

  /** The token record of the file: an authorization address can refresh nothing else. */
  private static TokenRecord readRecord(File file) throws IOException {
    if (!isRecord(file)) {
      throw new IllegalArgumentException("--auth-url (or VOICELINK_AUTH_URL) refreshes a token record,"
          + " as login and cloud-token write it; --token-file " + file + " holds a bare token, which"
          + " cannot be refreshed");
    }
    TokenRecord record = new FileTokenStore(file).load();
    if (record == null) throw new IllegalArgumentException("--token-file " + file + " is empty");
    return record;
  }

  private static boolean isRecord(File file) throws IOException {
    return tokenText(file).startsWith("{");
  }

  private static String tokenText(File file) throws IOException {
    if (!file.isFile()) throw new IllegalArgumentException("--token-file " + file + " is not a file");
    return SecretInput.read(file, "--token-file", "", Collections.<String, String>emptyMap());
  }
}
