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
 * it, or a bare token pasted from elsewhere. The file is read once, when it is checked. With {@code
 * --auth-url} the record is kept alive by a {@link TokenManager}, which refreshes it when it has
 * expired and saves the rotated record back to the file.
 */
final class TokenFileSource {
  private final File file;
  private final @Nullable String authUrl;
  /** The record the file held when checked; null for a bare token. */
  private final @Nullable TokenRecord record;
  /** The access token the file held when checked. */
  private final String token;

  private TokenFileSource(File file, @Nullable String authUrl, @Nullable TokenRecord record,
      String token) {
    this.file = file;
    this.authUrl = authUrl;
    this.record = record;
    this.token = token;
  }

  /** Reads and checks the file before anything is sent: a writable record if it may be refreshed. */
  static TokenFileSource check(File file, @Nullable String authUrl) throws IOException {
    // Before any message repeats the path: a path that names nothing may be the token itself.
    if (!file.exists()) throw new IllegalArgumentException(SecretInput.namesNoFile("--token-file"));
    if (authUrl != null) {
      String unwritable = AuthCommand.tokenFileProblem(file); // a refresh rotates the token
      if (unwritable != null) throw new IllegalArgumentException(unwritable);
    }
    if (!file.isFile()) throw new IllegalArgumentException("--token-file " + file + " is not a file");
    String text = SecretInput.read(file, "--token-file", "", Collections.<String, String>emptyMap());
    if (!text.startsWith("{")) {
      if (authUrl != null) {
        throw new IllegalArgumentException("--auth-url (or VOICELINK_AUTH_URL) refreshes a token"
            + " record, as login and cloud-token write it; --token-file " + file + " holds a bare"
            + " token, which cannot be refreshed");
      }
      return new TokenFileSource(file, null, null, text);
    }
    TokenRecord record = new FileTokenStore(file).load();
    if (record == null) throw new IllegalArgumentException("--token-file " + file + " is empty");
    return new TokenFileSource(file, authUrl, record, record.accessToken());
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
   * refreshed, as the file held it otherwise.
   */
  TokenSource tokens(VoiceLinkClient client) {
    return authUrl == null ? () -> token : manager(client);
  }

  /** The manager of the file's record, on {@code client} (made by {@link #client}); if refreshable. */
  TokenManager manager(VoiceLinkClient client) {
    return TokenManager.builder(client).store(new FileTokenStore(file)).build();
  }

  /** The command that gets the file's credential anew. */
  String signInCommand() {
    return signInCommand(record);
  }

  /** The command that gets {@code record} anew: cloud-token for a cloud record, login would replace it. */
  static String signInCommand(@Nullable TokenRecord record) {
    return record != null && record.grant() == TokenRecord.Grant.CLOUD ? "cloud-token" : "login";
  }

  /** The record the file held when checked, to tell afterwards whether a refresh rotated it. */
  @Nullable TokenRecord record() {
    return record;
  }
}
