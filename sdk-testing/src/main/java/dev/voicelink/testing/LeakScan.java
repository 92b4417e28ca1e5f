package dev.voicelink.testing;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Proves that a run leaked no secret: collects every secret the reference server knows or handed out
 * during the run, then looks for each of them in the texts the run produced (logs, console output,
 * exception messages, {@code toString()} of values).
 *
 * <pre>{@code
 * LeakScan scan = LeakScan.of(server);        // after the run: reads the console and the journal
 * scan.scan("stderr", capturedStderr);
 * scan.scan("TokenRecord.toString()", String.valueOf(record));
 * scan.assertNoLeak();                        // AssertionError naming kind and place, never the secret
 * }</pre>
 *
 * <p>Secrets collected: every client secret and account key of the console; every device code, access
 * token and refresh token the server issued (from the journal's responses); every SMS code the
 * verification page was sent (from the journal's requests) and the last one sent to each tester phone;
 * every {@code X-CheckSum} (replayable for 5 minutes). SMS codes are 6 digits, so they count only where
 * no digit is next to them.
 *
 * <p>Not thread-safe; use it from the test thread after the run.
 */
public final class LeakScan {
  private static final Pattern ISSUED = Pattern.compile(
      "\"(access_token|refresh_token|device_code)\"\\s*:\\s*\"([^\"]+)\"");
  private static final Pattern SMS = Pattern.compile("(?:^|&)sms_code=(\\d+)");
  private static final Pattern MAYBE_SECRET =
      Pattern.compile("[A-Za-z0-9_+/=-]*\\d[A-Za-z0-9_+/=-]*");

  /** Kind of secret, then the secrets of that kind, in the order found. */
  private final Map<String, Set<String>> secrets = new LinkedHashMap<>();
  private final List<String> findings = new ArrayList<>();
  private final Map<String, Long> scannedChars = new LinkedHashMap<>();

  private LeakScan() {
  }

  /** An empty scan; add secrets with {@link #secret(String, String)}. */
  public static LeakScan empty() {
    return new LeakScan();
  }

  /** A scan of everything secret that {@code server}'s console holds and its journal shows. */
  public static LeakScan of(ReferenceServer server) {
    LeakScan scan = new LeakScan();
    Console console = server.console();
    for (RegisteredClient client : console.getClients()) scan.secret("client_secret", client.clientSecret());
    for (Account account : console.getAccounts()) scan.secret("account_key", account.accountKey());
    for (String phone : console.getTesterPhones()) {
      String sms = server.lastSmsCode(phone);
      if (sms != null) scan.secret("sms_code", sms);
    }
    for (RecordedCall call : server.journal().snapshot()) {
      Matcher issued = ISSUED.matcher(call.responseBody());
      while (issued.find()) scan.secret(issued.group(1), issued.group(2));
      Matcher sms = SMS.matcher(call.body());
      while (sms.find()) scan.secret("sms_code", sms.group(1));
      String checksum = call.header("X-CheckSum");
      if (checksum != null && !checksum.isEmpty()) scan.secret("x_checksum", checksum);
    }
    return scan;
  }

  /** Adds a secret of {@code kind} (a name such as {@code access_token}) to look for. */
  public LeakScan secret(String kind, String secret) {
    if (kind == null || kind.isEmpty()) throw new IllegalArgumentException("kind must not be empty");
    if (secret == null || secret.isEmpty()) {
      throw new IllegalArgumentException("secret of kind " + kind + " must not be empty");
    }
    Set<String> ofKind = secrets.get(kind);
    if (ofKind == null) {
      ofKind = new LinkedHashSet<>();
      secrets.put(kind, ofKind);
    }
    ofKind.add(secret);
    return this;
  }

  /** How many distinct secrets of each kind are looked for. */
  public Map<String, Integer> counts() {
    Map<String, Integer> counts = new LinkedHashMap<>();
    for (Map.Entry<String, Set<String>> e : secrets.entrySet()) counts.put(e.getKey(), e.getValue().size());
    return counts;
  }

  /** How many distinct secrets are looked for. */
  public int secretCount() {
    int n = 0;
    for (Set<String> ofKind : secrets.values()) n += ofKind.size();
    return n;
  }

  /** Characters scanned so far, per place. */
  public Map<String, Long> scannedChars() {
    return new LinkedHashMap<>(scannedChars);
  }

  /** Characters scanned so far, in total. */
  public long totalScannedChars() {
    long n = 0;
    for (long c : scannedChars.values()) n += c;
    return n;
  }

  /**
   * Looks for every secret in {@code text}, which came from {@code where} (for example {@code
   * "stderr"}); a finding is kept for {@link #assertNoLeak()}. A null text (an output that was never
   * captured) has nothing to find. Returns this scan.
   */
  public LeakScan scan(String where, @Nullable String text) {
    if (text == null) return this;
    Long before = scannedChars.get(where);
    scannedChars.put(where, (before == null ? 0 : before) + text.length());
    for (Map.Entry<String, Set<String>> e : secrets.entrySet()) {
      int index = 0;
      for (String secret : e.getValue()) {
        index++;
        int at = find(text, secret, e.getKey().equals("sms_code"));
        if (at >= 0) {
          findings.add(e.getKey() + " #" + index + " of " + e.getValue().size() + " (" + secret.length()
              + " chars) in " + where + " at line " + lineOf(text, at) + ": …"
              + mask(text, at, secret.length()) + "…");
        }
      }
    }
    return this;
  }

  /** The findings so far: kind, which one, where and its surroundings, the secret masked. */
  public List<String> findings() {
    return new ArrayList<>(findings);
  }

  /** @throws AssertionError listing every finding, if any (secrets masked) */
  public void assertNoLeak() {
    if (secrets.isEmpty()) throw new AssertionError("no secrets were collected: the scan cannot fail");
    if (!findings.isEmpty()) {
      StringBuilder message = new StringBuilder(findings.size() + " secret(s) leaked:");
      for (String finding : findings) message.append("\n  ").append(finding);
      throw new AssertionError(message.toString());
    }
  }

  private static int find(String text, String secret, boolean digitsAlone) {
    int from = 0;
    while (true) {
      int at = text.indexOf(secret, from);
      if (at < 0 || !digitsAlone) return at;
      int end = at + secret.length();
      boolean digitBefore = at > 0 && Character.isDigit(text.charAt(at - 1));
      boolean digitAfter = end < text.length() && Character.isDigit(text.charAt(end));
      if (!digitBefore && !digitAfter) return at;
      from = at + 1;
    }
  }

  private static int lineOf(String text, int at) {
    int line = 1;
    for (int i = 0; i < at; i++) {
      if (text.charAt(i) == '\n') line++;
    }
    return line;
  }

  /**
   * Up to 30 characters either side of the secret, the secret replaced by stars; so is anything else
   * in that window that could be (part of) a secret: every word that holds a digit.
   */
  private static String mask(String text, int at, int length) {
    int start = Math.max(0, at - 30);
    int end = Math.min(text.length(), at + length + 30);
    String before = MAYBE_SECRET.matcher(text.substring(start, at)).replaceAll("‹…›");
    String after = MAYBE_SECRET.matcher(text.substring(at + length, end)).replaceAll("‹…›");
    StringBuilder stars = new StringBuilder();
    for (int i = 0; i < length; i++) stars.append('*');
    return (before + stars + after).replace('\n', ' ');
  }
}
