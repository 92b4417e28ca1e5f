package dev.voicelink.auth;

import dev.voicelink.core.internal.Scrub;
import java.io.IOException;
import org.jspecify.annotations.Nullable;

/**
 * Which records a {@link TokenManager} may keep: of its grant and client_id when it was given them, and
 * of its dialect and server. Immutable.
 */
final class CredentialKind {
  final TokenRecord.@Nullable Grant grant;
  final @Nullable String clientId;
  /** The standard server of the credential; null for the platform, or for whatever the store holds. */
  private final @Nullable OAuthServer server;

  CredentialKind(TokenRecord.@Nullable Grant grant, @Nullable String clientId, @Nullable OAuthServer server) {
    this.grant = grant;
    this.clientId = clientId;
    this.server = server;
  }

  /**
   * Checks a record the app gives.
   *
   * @throws IllegalArgumentException naming what does not match
   */
  void checkGiven(TokenRecord record) {
    String mismatch = mismatch(record, "record is", true);
    if (mismatch != null) throw new IllegalArgumentException(mismatch);
  }

  /**
   * Checks the record the store holds (its client_id is not compared).
   *
   * @throws IOException naming what does not match
   */
  void checkStored(TokenRecord record) throws IOException {
    String mismatch = mismatch(record, "the store holds", false);
    if (mismatch != null) throw new IOException(mismatch);
  }

  /** Whether this manager could keep {@code record}, another manager's of the same store. */
  boolean fits(TokenRecord record) {
    return (clientId == null || record.clientId().equals(clientId))
        && mismatch(record, "", false) == null;
  }

  /** Why {@code record} cannot be kept, as a sentence that starts with {@code subject}; null if it can. */
  private @Nullable String mismatch(TokenRecord record, String subject, boolean checkClientId) {
    if (grant != null && record.grant() != grant) {
      return subject + " a " + record.grant().wireName() + " token; this manager keeps a "
          + grant.wireName() + " token";
    }
    if (checkClientId && clientId != null && !record.clientId().equals(clientId)) {
      return subject + " for client_id " + record.clientId()
          + "; this manager keeps the token of client_id " + clientId;
    }
    String server = serverMismatch(record);
    return server == null ? null : subject + " " + server;
  }

  /**
   * Why {@code record} (of another dialect or server) cannot be kept, as the end of a sentence; null if
   * it can.
   */
  private @Nullable String serverMismatch(TokenRecord record) {
    boolean standard = record.dialect() == TokenRecord.Dialect.STANDARD;
    String what = standard ? "a record of the standard server " + Scrub.endpoint(record.tokenEndpoint())
        : "a platform record";
    if (server != null && (!standard || !server.tokenEndpoint().equals(record.tokenEndpoint()))) {
      return what + "; this manager keeps tokens of " + Scrub.endpoint(server.tokenEndpoint());
    }
    if (server == null && grant != null && standard) {
      return what + "; this manager keeps platform tokens (use TokenManager.builder(client, server))";
    }
    return null;
  }

  @Override public String toString() {
    return "grant=" + (grant == null ? "stored" : grant.wireName()) + ", client_id=" + clientId;
  }
}
