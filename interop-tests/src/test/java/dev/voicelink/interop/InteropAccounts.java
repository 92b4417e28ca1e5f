package dev.voicelink.interop;

import java.util.List;
import java.util.Set;

/**
 * The clients and people that {@link StandardAuthServer} knows. Fixed, well-known test values: they are
 * printed by {@link StandardServerMain} so that a person can use them by hand, and they protect nothing.
 */
public final class InteropAccounts {
  private InteropAccounts() {}

  /** A scope of our own, beside the standard ones: what a voice platform would ask for. */
  public static final String CUSTOM_SCOPE = "voicelink.entities";
  /** What a device asks for. The server also registers {@code openid} for the device clients (it refuses it). */
  public static final String DEVICE_SCOPE = "profile " + CUSTOM_SCOPE;
  /** What a backend asks for with client credentials. */
  public static final String BACKEND_SCOPE = CUSTOM_SCOPE;

  /** How a client authenticates at the token endpoint (RFC 7591 names). */
  public enum AuthMethod {
    NONE("none"), CLIENT_SECRET_BASIC("client_secret_basic"), CLIENT_SECRET_POST("client_secret_post");

    public final String value;

    AuthMethod(String value) {
      this.value = value;
    }
  }

  /** A registered client. {@code secret} is null for the public client. Immutable. */
  public record Client(String id, String secret, AuthMethod method, Set<String> grantTypes, Set<String> scopes) {
    /** This client sending another secret (null: none), as a misconfigured device would. */
    public Client withSecret(String otherSecret) {
      return new Client(id, otherSecret, otherSecret == null ? AuthMethod.NONE : method, grantTypes, scopes);
    }

    /** This client authenticating in another way than it is registered for. */
    public Client sentAs(AuthMethod otherMethod) {
      return new Client(id, secret, otherMethod, grantTypes, scopes);
    }

    /** A client the server does not know, with this one's method and secret. */
    public Client withId(String otherId) {
      return new Client(otherId, secret, method, grantTypes, scopes);
    }

    @Override public String toString() {
      return "Client{" + id + ", " + method.value + ", grants=" + grantTypes + ", scopes=" + scopes + "}";
    }
  }

  /** A person with an account on the server, who signs in on its login page. Immutable. */
  public record User(String username, String password, String name) {
    @Override public String toString() {
      return "User{" + username + ", " + name + "}";
    }
  }

  static final String DEVICE_CODE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";
  static final Set<String> DEVICE_GRANTS = Set.of(DEVICE_CODE_GRANT, "refresh_token");
  static final Set<String> DEVICE_SCOPES = Set.of("openid", "profile", CUSTOM_SCOPE);

  /** A device without a secret (RFC 8628 section 5.6): sends only {@code client_id}. Gets refresh tokens. */
  public static final Client DEVICE_PUBLIC =
      new Client("speaker-public", null, AuthMethod.NONE, DEVICE_GRANTS, DEVICE_SCOPES);
  /** A device with a secret sent in HTTP Basic. Gets refresh tokens. */
  public static final Client DEVICE_BASIC = new Client("speaker-basic", "speaker-basic-secret",
      AuthMethod.CLIENT_SECRET_BASIC, DEVICE_GRANTS, DEVICE_SCOPES);
  /** A device with a secret sent in the form body. Gets refresh tokens. */
  public static final Client DEVICE_POST = new Client("speaker-post", "speaker-post-secret",
      AuthMethod.CLIENT_SECRET_POST, DEVICE_GRANTS, DEVICE_SCOPES);
  /** A vendor backend, client credentials with HTTP Basic. */
  public static final Client BACKEND_BASIC = new Client("backend-basic", "backend-basic-secret",
      AuthMethod.CLIENT_SECRET_BASIC, Set.of("client_credentials"), Set.of(CUSTOM_SCOPE));
  /** A vendor backend, client credentials with the secret in the form body. */
  public static final Client BACKEND_POST = new Client("backend-post", "backend-post-secret",
      AuthMethod.CLIENT_SECRET_POST, Set.of("client_credentials"), Set.of(CUSTOM_SCOPE));

  public static final List<Client> CLIENTS = List.of(DEVICE_PUBLIC, DEVICE_BASIC, DEVICE_POST, BACKEND_BASIC, BACKEND_POST);

  public static final User ALICE = new User("alice", "alice-password", "Alice Example");
  public static final User BOB = new User("bob", "bob-password", "Bob Example");
  public static final List<User> USERS = List.of(ALICE, BOB);
}
