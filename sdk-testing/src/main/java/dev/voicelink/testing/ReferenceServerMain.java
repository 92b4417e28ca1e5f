package dev.voicelink.testing;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
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
 * [--clock-scale F] [--variant NAME[,NAME...]]...}. Prints the three base addresses, the clock scale and
 * the console's lifetimes, the variants and the loaded test credentials (account keys only as a
 * fingerprint); the SMS codes of the verification page
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

  /**
   * The clock and the console's lifetimes, in the server's seconds as the console file gives them; with
   * a clock scale other than 1, each lifetime in real seconds too (the poll interval is the device's to
   * keep, in its own time, so it has none).
   */
  private static void describeTime(ServerClock clock, Console c, PrintStream out) {
    double scale = clock instanceof ServerClock.Scaled ? ((ServerClock.Scaled) clock).factor() : Double.NaN;
    if (Double.isNaN(scale)) {
      out.println("  clock         manual: server time moves only when advanced");
    } else if (scale == 1.0) {
      out.println("  clock         --clock-scale 1: real time; an upload takes effect "
          + number(ResourceStore.IN_EFFECT_AFTER_MILLIS / 1000.0) + " s after it");
    } else {
      out.println("  clock         --clock-scale " + number(scale) + ": server time runs " + number(scale)
          + " times as fast as real time; an upload takes effect "
          + number(ResourceStore.IN_EFFECT_AFTER_MILLIS / 1000.0 / scale) + " s after it");
    }
    out.println("  device flow   user code " + lifetime(c.getUserCodeLifetimeSeconds(), scale) + ", SMS code "
        + lifetime(c.getSmsCodeLifetimeSeconds(), scale) + ", poll interval " + c.getPollIntervalSeconds()
        + " s, slow_down " + (c.isSlowDown() ? "on" : "off"));
    long refresh = c.getRefreshTokenLifetimeSeconds();
    out.println("  tokens        access token " + lifetime(c.getAccessTokenLifetimeSeconds(), scale)
        + ", refresh token " + (refresh == 0 ? "without time limit" : lifetime(refresh, scale)));
  }

  /** {@code 120 s}, or at a clock scale other than 1 {@code 120 s (12 s real)}. */
  private static String lifetime(long seconds, double scale) {
    return seconds + " s" + (Double.isNaN(scale) || scale == 1.0 ? "" : " (" + number(seconds / scale) + " s real)");
  }

  /**
   * A whole number as such, another to one decimal ({@code 12}, {@code 42.9}), or to three significant
   * digits when that would be 0 ({@code 0.012}).
   */
  static String number(double value) {
    if (value == Math.rint(value) && Math.abs(value) < 1e15) return Long.toString((long) value);
    BigDecimal exact = new BigDecimal(value);
    BigDecimal tenths = exact.setScale(1, RoundingMode.HALF_UP);
    BigDecimal shown = tenths.signum() != 0 ? tenths : exact.round(new MathContext(3));
    return shown.stripTrailingZeros().toPlainString();
  }

  static void describe(ReferenceServer server, PrintStream out) {
    Console c = server.console();
    out.println("VoiceLink reference server");
    out.println("  auth_url      " + server.authUrl());
    out.println("  platform_url  " + server.platformUrl());
    out.println("  base_url      " + server.baseUrl());
    out.println("  verification  " + server.verificationUri());
    describeTime(server.clock(), c, out);
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
