package dev.voicelink.testing;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * Runs the reference server standalone until stopped:
 * {@code java -jar voicelink-reference-server.jar [--port N] [--bind ADDRESS] [--console console.json]
 * [--clock-scale F] [--variant NAME[,NAME...]]...}. Prints the three base addresses, the variants and the
 * loaded test credentials (account keys only as a fingerprint); the SMS codes of the verification page
 * are printed as they are sent. {@code --variant} switches on {@link PlatformVariant}s by their {@link
 * PlatformVariant#flag() flag}, for example {@code --variant interval-ms,no-rotation}.
 */
public final class ReferenceServerMain {
  private ReferenceServerMain() {
  }

  public static void main(String[] args) throws Exception {
    ReferenceServer server;
    try {
      server = fromArgs(args);
    } catch (IllegalArgumentException e) {
      System.err.println("error: " + e.getMessage());
      System.err.println(usage());
      System.exit(2);
      return;
    }
    PrintStream out = System.out;
    server.smsListener((phone, code) -> out.println("SMS to " + phone + ": verification code " + code));
    server.start();
    describe(server, out);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        server.close();
      } catch (IOException ignored) {
        // shutting down anyway
      }
      stopped.countDown();
    }, "reference-server-shutdown"));
    stopped.await();
  }

  static String usage() {
    StringBuilder variants = new StringBuilder();
    for (PlatformVariant v : PlatformVariant.values()) variants.append(variants.length() == 0 ? "" : "|").append(v.flag());
    return "usage: java -jar voicelink-reference-server.jar [--port N] [--bind ADDRESS] [--console console.json]"
        + " [--clock-scale F] [--variant NAME[,NAME...]]...\n  variants: " + variants;
  }

  static ReferenceServer fromArgs(String[] args) throws IOException {
    ReferenceServer.Builder b = ReferenceServer.builder();
    Console console = null;
    List<PlatformVariant> variants = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      String option = args[i];
      if ("--help".equals(option) || "-h".equals(option)) throw new IllegalArgumentException("help requested");
      if (i + 1 >= args.length) throw new IllegalArgumentException(option + " needs a value");
      String value = args[++i];
      switch (option) {
        case "--port":
          try {
            b.port(Integer.parseInt(value));
          } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--port must be a number 0..65535; was: " + value);
          }
          break;
        case "--bind":
          b.bindAddress(InetAddress.getByName(value));
          break;
        case "--console":
          File f = new File(value);
          if (!f.isFile()) throw new IllegalArgumentException("--console file not found: " + value);
          console = Console.fromFile(f);
          break;
        case "--variant":
          for (String flag : value.split(",", -1)) variants.add(PlatformVariant.ofFlag(flag.trim()));
          break;
        case "--clock-scale":
          try {
            b.clock(ServerClock.scaled(Double.parseDouble(value)));
          } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--clock-scale must be a positive number; was: " + value);
          }
          break;
        default:
          throw new IllegalArgumentException("unknown option " + option);
      }
    }
    if (console == null) console = Console.defaults();
    for (PlatformVariant v : variants) console.setVariant(v, true);
    return b.console(console).build();
  }

  static void describe(ReferenceServer server, PrintStream out) {
    Console c = server.console();
    out.println("VoiceLink reference server");
    out.println("  auth_url      " + server.authUrl());
    out.println("  platform_url  " + server.platformUrl());
    out.println("  base_url      " + server.baseUrl());
    out.println("  verification  " + server.verificationUri());
    if (!c.getVariants().isEmpty()) {
      StringBuilder flags = new StringBuilder();
      for (PlatformVariant v : c.getVariants()) flags.append(flags.length() == 0 ? "" : ", ").append(v.flag());
      out.println("  variants      " + flags);
    }
    for (RegisteredClient client : c.getClients()) {
      out.println("  client        " + client.clientId() + " (" + client.name() + "), client secret #"
          + Ids.fingerprint(client.clientSecret()) + ", devices " + c.getDeviceIds(client.clientId()));
    }
    out.println("  tester phones " + c.getTesterPhones());
    for (Account a : c.getAccounts()) {
      out.println("  account       namespace " + a.namespace() + ", appid " + a.appid() + ", account key #"
          + a.accountKeyFingerprint() + (a.dynamicEntityPermission() ? "" : ", dynamic entities OFF")
          + (a.ipWhitelistEnabled() ? ", IP whitelist " + a.ipWhitelist() : ""));
    }
    for (EntityDefinition e : c.getEntities()) {
      out.println("  resource      " + e.resName() + " fields " + e.fields() + " dimension " + e.dimension());
    }
    out.println("Serving until stopped (Ctrl-C).");
  }
}
