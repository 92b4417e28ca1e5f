package dev.voicelink.entity;

import okio.ByteString;

/**
 * The platform's user dimension for a user who signed in with a third-party account (protocol 5.1.3):
 * an {@code auth_id} (protocol 2.4: 32 lowercase letters and digits, one-to-one with the end user)
 * derived from the identity that account's server gives.
 *
 * <p>The derivation is the lowercase hex MD5 of the UTF-8 bytes of {@code issuer + "\n" + subject}.
 * An issuer is a URL and has no line break, so no two identities share an input. The same user of the
 * same server always gets the same {@code auth_id} on every device and in the app's backend, which can
 * compute it the same way ({@code printf '%s\n%s' "$ISS" "$SUB" | md5sum}). MD5 is used here as a
 * fixed-length encoding of an identity, not as a secret: the {@code auth_id} hides the raw subject
 * but anyone who knows both values can compute it.
 *
 * <p>Take the subject from the server's userinfo endpoint ({@link
 * dev.voicelink.auth.OAuthServer#subject}, with the user's access token) or from an ID token that the
 * app has verified (signature, issuer, audience, expiry). Never from an ID token read without
 * verification: anyone can write one.
 *
 * <pre>{@code
 * String subject = server.subject(client, tokens).execute();           // userinfo's "sub"
 * String authId = AuthId.fromThirdPartyIdentity(server.issuer(), subject);
 * }</pre>
 *
 * <p>An account service of the manufacturer's that is not an OAuth 2.0 server names its users the same
 * way: the issuer is an address that names the service (for example {@code
 * https://accounts.example.com}), the subject is the user's stable id there, never an e-mail address or
 * a phone number that the user may change. A user signed in with the platform's own account has the
 * platform's {@code auth_id} instead, which the interaction channel names (docs/dynamic-entities.md,
 * "The user's auth_id"); an {@code auth_id} derived here is activated by name, with {@link
 * PersParam.Activation#user(String)}.
 *
 * <p>Stateless and thread-safe. See docs/third-party-accounts.md.
 */
public final class AuthId {
  private AuthId() {
  }

  /**
   * The {@code auth_id} of the user {@code subject} ({@code sub}) of the server {@code issuer}
   * ({@code iss}, exactly as the server states it), for {@link PersParam#user(String)}.
   *
   * @throws IllegalArgumentException if either is empty, or the issuer has a line break or blank
   */
  public static String fromThirdPartyIdentity(String issuer, String subject) {
    if (issuer == null || issuer.isEmpty()) {
      throw new IllegalArgumentException("issuer must not be empty: it is the iss of the user's server");
    }
    for (int i = 0; i < issuer.length(); i++) {
      if (Character.isWhitespace(issuer.charAt(i))) {
        throw new IllegalArgumentException("issuer must be a URL without blanks or line breaks; has "
            + "one at index " + i);
      }
    }
    if (subject == null || subject.isEmpty()) {
      throw new IllegalArgumentException("subject must not be empty: it is the sub of the user at "
          + "the issuer");
    }
    return ByteString.encodeUtf8(issuer + "\n" + subject).md5().hex();
  }
}
