package dev.voicelink.testing;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.CountDownLatch;
import org.jspecify.annotations.Nullable;

/**
 * Runs the reference server standalone until stopped:
 * {@code java -jar voicelink-reference-server.jar [--port N] [--bind ADDRESS] [--console console.json]
 * [--clock-scale F] [--variant NAME[,NAME...]]...}. Prints the three base addresses, the variants and the
 * loaded test credentials (account keys only as a fingerprint); the SMS codes of the verification page
 * are printed as they are sent, once each, on standard output ({@code SMS to 13800000000: verification
 * code 123456}; {@link StandaloneServerOutput} reads them for a script). {@code --variant} switches on {@link PlatformVariant}s by their {@link
 * PlatformVariant#flag() flag}, for example {@code --variant interval-ms,no-rotation}.
 */
public final class ReferenceServerMain {
  private ReferenceServerMain() {
  }

  public static void main(String[] args) throws Exception {
    ReferenceServer server = start(args, System.out, System.err);
    if (server == null) {
      System.exit(isHelp(args) ? 0 : 2);
      return;
    }
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

  /**
   * Starts the server {@code args} describe and prints its addresses to {@code out}; or prints the
   * usage for {@code --help}, or one error line and the usage to {@code err} when it cannot start (a
   * bad option, a console file that cannot be read or is inconsistent, a port in use, an address that
   * is not this machine's), and returns null.
   */
  static @Nullable ReferenceServer start(String[] args, PrintStream out, PrintStream err) {
    if (isHelp(args)) {
      out.println(usage());
      return null;
    }
    ReferenceServer server = null;
    try {
      server = fromArgs(args);
      server.smsListener((phone, code) -> out.println(VerificationPage.smsLine(phone, code)));
      server.start();
      describe(server, out);
      return server;
    } catch (IllegalArgumentException | IllegalStateException e) {
      err.println("error: " + e.getMessage());
    } catch (IOException e) {
      // BindException and the like: the address and port of the options, and why not
      err.println("error: the server cannot listen there: " + e.getMessage()
          + " (is the port in use, or the --bind address not one of this machine's?)");
    }
    err.println(usage());
    if (server != null) {
      try {
        server.close();
      } catch (IOException ignored) {
        // it never started
      }
    }
    return null;
  }

  private static boolean isHelp(String[] args) {
    for (String arg : args) {
      if ("--help".equals(arg) || "-h".equals(arg)) return true;
    }
    return false;
  }

  static String usage() {
    StringBuilder variants = new StringBuilder();
    for (PlatformVariant v : PlatformVariant.values()) variants.append(variants.length() == 0 ? "" : "|").append(v.flag());
    return "usage: java -jar voicelink-reference-server.jar [--port N] [--bind ADDRESS] [--console console.json]"
        + " [--clock-scale F] [--variant NAME[,NAME...]]... [--keep-alive-timeout MS [--idle-close "
        + flag(IdleClose.WHEN_IDLE) + "|" + flag(IdleClose.AS_REQUEST_ARRIVES) + "]]\n  variants: " + variants;
  }

  /** Calls the standalone server keeps in its journal: it may run for days. */
  static final int JOURNAL_LIMIT = 10_000;

  private static final List<String> OPTIONS = Arrays.asList("--port", "--bind", "--console",
      "--variant", "--clock-scale", "--keep-alive-timeout", "--idle-close");

  static ReferenceServer fromArgs(String[] args) {
    ReferenceServer.Builder b = ReferenceServer.builder().journalLimit(JOURNAL_LIMIT);
    Console console = null;
    List<PlatformVariant> variants = new ArrayList<>();
    long keepAliveMillis = 0;
    IdleClose idleClose = null;
    for (int i = 0; i < args.length; i++) {
      String option = args[i];
      if (!OPTIONS.contains(option)) throw new IllegalArgumentException("unknown option " + option);
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
          try {
            b.bindAddress(InetAddress.getByName(value));
          } catch (UnknownHostException e) {
            throw new IllegalArgumentException("--bind must be an address or a known host name; was: " + value);
          }
          break;
        case "--console":
          File f = new File(value);
          if (!f.isFile()) throw new IllegalArgumentException("--console file not found: " + value);
          try {
            console = Console.fromFile(f);
          } catch (IOException e) {
            throw new IllegalArgumentException("--console file " + value + " cannot be read: " + e.getMessage());
          }
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
        case "--keep-alive-timeout":
          try {
            keepAliveMillis = Long.parseLong(value);
          } catch (NumberFormatException e) {
            keepAliveMillis = -1;
          }
          if (keepAliveMillis < 1) {
            throw new IllegalArgumentException("--keep-alive-timeout must be a number of milliseconds, 1 or"
                + " more; was: " + value);
          }
          break;
        case "--idle-close":
          idleClose = idleClose(value);
          break;
        default:
          throw new IllegalArgumentException("unknown option " + option);
      }
    }
    if (keepAliveMillis > 0) {
      b.keepAliveTimeout(keepAliveMillis, TimeUnit.MILLISECONDS,
          idleClose == null ? IdleClose.WHEN_IDLE : idleClose);
    } else if (idleClose != null) {
      throw new IllegalArgumentException("--idle-close needs --keep-alive-timeout");
    }
    if (console == null) console = Console.defaults();
    for (PlatformVariant v : variants) console.setVariant(v, true);
    return b.console(console).build();
  }

  private static IdleClose idleClose(String value) {
    for (IdleClose how : IdleClose.values()) {
      if (flag(how).equals(value)) return how;
    }
    throw new IllegalArgumentException("--idle-close must be " + flag(IdleClose.WHEN_IDLE) + " or "
        + flag(IdleClose.AS_REQUEST_ARRIVES) + "; was: " + value);
  }

  private static String flag(IdleClose how) {
    return how.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  static void describe(ReferenceServer server, PrintStream out) {
    Console c = server.console();
    out.println("VoiceLink reference server");
    out.println("  auth_url      " + server.authUrl());
    out.println("  platform_url  " + server.platformUrl());
    out.println("  base_url      " + server.baseUrl());
    out.println("  verification  " + server.verificationUri());
    if (server.keepAliveMillis() > 0) {
      out.println("  keep-alive    idle connections closed after " + server.keepAliveMillis() + " ms, "
          + (server.idleClose() == IdleClose.WHEN_IDLE ? "when the time is up"
              : "as the next request arrives (it is dropped unread)"));
    }
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
