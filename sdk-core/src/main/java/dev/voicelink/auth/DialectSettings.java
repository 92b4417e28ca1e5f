package dev.voicelink.auth;

import dev.voicelink.core.internal.ClientCore;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The part of {@link DeviceAuthorizer.Builder} and {@link TokenManager.Builder} that decides their
 * authorization client: the standard server they were given (none: the platform's dialect), the
 * scope asked of it, the unit of a device code's {@code interval} when the app fixes it, and the
 * rule, with its one message, that the platform's dialect takes no standard setting. Both builders
 * hold one, so these cannot drift apart between them. Not thread-safe, as its builders.
 */
final class DialectSettings {
  final @Nullable OAuthServer server;
  /** The builder's class, which the rule's message names. */
  private final String owner;
  private @Nullable String scope;
  /** The app's unit of {@code interval}; null: the dialect's reading. */
  private @Nullable TimeUnit intervalUnit;

  DialectSettings(@Nullable OAuthServer server, String owner) {
    this.server = server;
    this.owner = owner;
  }

  /**
   * Refuses {@code setting} on the platform's dialect, before its value is looked at: the mistake is
   * the setting, whatever its value.
   *
   * @throws IllegalStateException unless the builder was given a standard server
   */
  void requireStandard(String setting) {
    if (server == null) {
      throw new IllegalStateException(setting + " is a standard OAuth 2.0 setting; the platform's"
          + " dialect has none (use " + owner + ".builder(client, server))");
    }
  }

  /**
   * Sets the scope to ask the standard server for.
   *
   * @throws IllegalStateException on the platform's dialect
   * @throws IllegalArgumentException if {@code scope} is not one RFC 6749 section 3.3 allows
   */
  void scope(String scope) {
    requireStandard("scope");
    this.scope = Validate.scope(scope);
  }

  /**
   * Fixes the unit of a device code's {@code interval}.
   *
   * @throws IllegalArgumentException unless {@code unit} is seconds or milliseconds
   */
  void intervalUnit(TimeUnit unit) {
    if (unit != TimeUnit.SECONDS && unit != TimeUnit.MILLISECONDS) {
      throw new IllegalArgumentException("intervalUnit must be SECONDS or MILLISECONDS; was: " + unit);
    }
    intervalUnit = unit;
  }

  /**
   * An authorization client of these settings, for a client with {@code clientSecret}.
   *
   * @throws IllegalStateException as {@link #dialect}
   */
  AuthClient authClient(ClientCore core, @Nullable String clientSecret) {
    return new AuthClient(core, dialect(core, clientSecret), intervalUnit);
  }

  /**
   * The dialect of these settings, for a client with {@code clientSecret} (null: none). The platform's
   * dialect is given none: a cloud credential's secret goes with each client credentials request.
   *
   * @throws IllegalStateException if the client has a secret the standard server can take no way
   */
  private OAuthDialect dialect(ClientCore core, @Nullable String clientSecret) {
    return server == null ? new PlatformDialect(core) : StandardDialect.of(server, clientSecret, scope);
  }
}
