package dev.voicelink.testing;

import org.jspecify.annotations.Nullable;

/**
 * An OAuth client registered in the device-access console: its client_id and client_secret, the name
 * the verification page shows, and its appid. Immutable; toString never shows the secret. Registered
 * with {@link Console.Builder#client} or {@link Console#putClient}.
 */
public final class RegisteredClient {
  private final String clientId;
  private final String clientSecret;
  private final String name;
  private final @Nullable String appid;

  private RegisteredClient(String clientId, String clientSecret, String name, @Nullable String appid) {
    this.clientId = Console.requireNonEmpty("clientId", clientId);
    this.clientSecret = Console.requireNonEmpty("clientSecret", clientSecret);
    this.name = Console.requireNonEmpty("name", name);
    this.appid = appid;
  }

  /**
   * @param appid the application an empty {@code appid} in a device's pers_param stands for;
   *     null means the first account's appid
   */
  public static RegisteredClient create(String clientId, String clientSecret, String name,
      @Nullable String appid) {
    return new RegisteredClient(clientId, clientSecret, name, appid);
  }

  public String clientId() {
    return clientId;
  }

  public String clientSecret() {
    return clientSecret;
  }

  public String name() {
    return name;
  }

  /** The appid an empty {@code appid} in a pers_param stands for, or null: the first account's. */
  public @Nullable String appid() {
    return appid;
  }

  @Override public String toString() {
    return "RegisteredClient{clientId=" + clientId + ", name=" + name + ", clientSecret=<redacted>}";
  }
}
