package dev.voicelink.interop;

import java.util.concurrent.CountDownLatch;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Runs {@link StandardAuthServer} on its own until Ctrl-C, for trying a device against it by hand
 * (README.md of this module, "Trying it locally"). Arguments: {@code --port N} (default 9000),
 * {@code --interval S} (advertise a polling interval, seconds), {@code --device-code-ttl S},
 * {@code --access-token-ttl S}.
 */
public final class StandardServerMain {
  /** Held here: the logging system keeps loggers only weakly, and a collected one forgets its level. */
  private static final Logger[] QUIET = {Logger.getLogger("org.apache"), Logger.getLogger("org.springframework")};

  private StandardServerMain() {}

  public static void main(String[] args) throws InterruptedException {
    StandardAuthServer.Builder builder = StandardAuthServer.builder().port(9000);
    for (int i = 0; i < args.length; i++) {
      String name = args[i];
      if (i + 1 >= args.length) usage("a value is missing after " + name);
      String value = args[++i];
      switch (name) {
        case "--port" -> builder.port(number(name, value));
        case "--interval" -> builder.interval(java.time.Duration.ofSeconds(number(name, value)));
        case "--device-code-ttl" -> builder.deviceCodeTimeToLive(java.time.Duration.ofSeconds(number(name, value)));
        case "--access-token-ttl" -> builder.accessTokenTimeToLive(java.time.Duration.ofSeconds(number(name, value)));
        default -> usage("unknown option " + name);
      }
    }
    // the servlet container and the framework log every start-up step at INFO: keep the console readable
    for (Logger logger : QUIET) logger.setLevel(Level.WARNING);
    StandardAuthServer server = builder.start();
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      server.close();
      stopped.countDown();
    }, "standard-auth-server-stop"));
    System.out.print(describe(server));
    System.out.println("Ctrl-C stops it.");
    stopped.await();
  }

  /** What the console shows: the issuer, its endpoints, the clients and the people (test values, all). */
  static String describe(StandardAuthServer server) {
    StringBuilder out = new StringBuilder();
    out.append("Spring Authorization Server (RFC 8628 device grant, OpenID Connect) on ").append(server.issuer())
        .append('\n');
    out.append("  issuer                ").append(server.issuer()).append('\n');
    out.append("  discovery             ").append(server.url("/.well-known/openid-configuration")).append('\n');
    out.append("  device authorization  ").append(server.deviceAuthorizationEndpoint()).append('\n');
    out.append("  token                 ").append(server.tokenEndpoint()).append('\n');
    out.append("  userinfo              ").append(server.userInfoEndpoint()).append('\n');
    out.append("  verification page     ").append(server.verificationUri()).append('\n');
    out.append("Clients (test values):\n");
    for (InteropAccounts.Client client : InteropAccounts.CLIENTS) {
      out.append(String.format("  %-15s %-20s secret %-22s scopes %s%n", client.id(), client.method().value,
          client.secret() == null ? "(none)" : client.secret(), String.join(" ", new java.util.TreeSet<>(client.scopes()))));
    }
    out.append("People who approve on the verification page (test values):\n");
    for (InteropAccounts.User user : InteropAccounts.USERS) {
      out.append(String.format("  %-15s password %s%n", user.username(), user.password()));
    }
    out.append("A device asks for: ").append(InteropAccounts.DEVICE_SCOPE).append(" (openid is refused by this server's"
        + " device grant); a backend for: ").append(InteropAccounts.BACKEND_SCOPE).append('\n');
    return out.toString();
  }

  private static int number(String name, String value) {
    try {
      return Integer.parseInt(value);
    } catch (NumberFormatException e) {
      usage(name + " takes a whole number, not " + value);
      return 0;
    }
  }

  private static void usage(String problem) {
    System.err.println(problem);
    System.err.println("usage: StandardServerMain [--port N] [--interval S] [--device-code-ttl S] [--access-token-ttl S]");
    System.exit(2);
  }
}
