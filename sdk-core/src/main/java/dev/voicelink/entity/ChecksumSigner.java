package dev.voicelink.entity;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.squareup.moshi.JsonReader;
import dev.voicelink.core.Clock;
import dev.voicelink.core.internal.SkewCorrectedClock;
import dev.voicelink.core.internal.Log;
import dev.voicelink.core.internal.Peek;
import dev.voicelink.core.internal.Redact;
import java.io.IOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Date;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import okhttp3.Interceptor;
import okhttp3.Request;
import okhttp3.Response;

/**
 * Signs dynamic entity web API requests (an OkHttp {@link Interceptor}): it adds {@code X-NameSpace},
 * a fresh random {@code X-Nonce}, {@code X-CurTime} (seconds since the epoch, from the given clock)
 * and {@code X-CheckSum} = lowercase hex MD5 of accountKey + nonce + curTime, to every request.
 *
 * <p>The account key never leaves this object: it is not logged, not in {@link #toString()}, and only
 * its checksum goes over the wire.
 *
 * <p>Clock skew: the server accepts a checksum for 5 minutes around its own time. When it refuses a
 * request with {@code code} {@value #STALE_TIME} (time outside the window) or {@value #CHECKSUM_REFUSED}
 * (illegal access, which some deployments answer for a stale time too) and the response's {@code Date}
 * header is more than
 * a minute away from the {@code X-CurTime} that was
 * sent, the signer learns the server's time from that header, signs the request again with a new nonce
 * and sends it once more. It retries at most once per request; any other refusal passes through.
 *
 * <p>{@link EntityWebApi} signs with the client's skew-corrected clock, so that what one request
 * learns all later ones use; a signer built here learns for itself. Thread-safe, and holds no
 * resources.
 */
public final class ChecksumSigner implements Interceptor {
  /** The web API code of a refused checksum (wrong key, expired or future {@code X-CurTime}). */
  public static final String CHECKSUM_REFUSED = "10105";
  /** The web API code of an {@code X-CurTime} more than 5 minutes away from the server's time. */
  public static final String STALE_TIME = "10113";
  private static final String TAG = "entity";
  private static final long PEEK_BYTES = 16 * 1024;
  private static final char[] HEX_DIGITS = "0123456789abcdef".toCharArray();
  private static final int NONCE_BYTES = 16;
  private static final int NONCES_PER_DRAW = 16;

  private final String namespace;
  private final ChecksumSource checksums;
  private final Clock clock;
  private final Random random;
  private final byte[] noncePool = new byte[NONCE_BYTES * NONCES_PER_DRAW];
  private int noncePoolUsed = noncePool.length; // guarded by noncePool
  /** Learnt offset, used only when the clock does not correct itself. */
  private volatile long learntOffsetMillis;

  private ChecksumSigner(Builder builder, ChecksumSource checksums) {
    this.namespace = builder.namespace;
    this.checksums = checksums;
    this.clock = builder.clock;
    this.random = builder.random != null ? builder.random : new SecureRandom();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The namespace sent as {@code X-NameSpace}. */
  public String namespace() {
    return namespace;
  }

  @Override public Response intercept(Chain chain) throws IOException {
    Request request = chain.request();
    long signedAt = nowMillis();
    long signedAtNanos = clock.monotonicNanos();
    Response response = chain.proceed(sign(request, signedAt));
    Date serverDate = response.headers().getDate("Date");
    // The server read X-CurTime between the signing and its answer, which an upload on a slow link
    // spreads over minutes: only a Date outside that span, beyond the tolerance, says the clock is off.
    long answeredAt = signedAt
        + TimeUnit.NANOSECONDS.toMillis(clock.monotonicNanos() - signedAtNanos);
    if (serverDate == null || !SkewCorrectedClock.isPlausible(serverDate.getTime())
        || (serverDate.getTime() >= signedAt - SkewCorrectedClock.TOLERANCE_MILLIS
            && serverDate.getTime() <= answeredAt + SkewCorrectedClock.TOLERANCE_MILLIS)
        || !isTimeRefusal(envelopeCode(response))) {
      return response;
    }
    learn(serverDate.getTime());
    Log.info(TAG, "checksum refused with X-CurTime " + ((serverDate.getTime() - signedAt) / 1000)
        + " s away from the server's Date; signing again with the server's time");
    response.close();
    return chain.proceed(sign(request, nowMillis()));
  }

  private static boolean isTimeRefusal(@Nullable String code) {
    return STALE_TIME.equals(code) || CHECKSUM_REFUSED.equals(code);
  }

  private Request sign(Request request, long wallMillis) throws IOException {
    String curTime = Long.toString(wallMillis / 1000L);
    String nonce = nonce();
    return request.newBuilder()
        .header("X-NameSpace", namespace)
        .header("X-Nonce", nonce)
        .header("X-CurTime", curTime)
        .header("X-CheckSum", checked(checksums.checksum(nonce, curTime)))
        .build();
  }

  static String checksum(String accountKey, String nonce, String curTime) {
    return new LocalKey(accountKey).checksum(nonce, curTime);
  }

  /** A remote source's answer must look like a checksum before it goes on the wire. */
  private static String checked(@Nullable String checksum) throws IOException {
    if (checksum == null || !isLowerHex(checksum, 32)) {
      throw new IOException("the checksum source answered " + (checksum == null ? "null"
          : checksum.length() + " characters") + "; expected 32 lowercase hex digits");
    }
    return checksum;
  }

  private static boolean isLowerHex(String s, int length) {
    if (s.length() != length) return false;
    for (int i = 0; i < length; i++) {
      char c = s.charAt(i);
      if ((c < '0' || c > '9') && (c < 'a' || c > 'f')) return false;
    }
    return true;
  }

  private static String hex(byte[] bytes, int offset, int length) {
    char[] out = new char[length * 2];
    for (int i = 0; i < length; i++) {
      byte b = bytes[offset + i];
      out[2 * i] = HEX_DIGITS[(b >> 4) & 0xf];
      out[2 * i + 1] = HEX_DIGITS[b & 0xf];
    }
    return new String(out);
  }

  /**
   * Computes {@code X-CheckSum} for a nonce and a time: the lowercase hex MD5 of accountKey + nonce +
   * curTime. Give the signer an implementation that asks your backend, and the account key never has
   * to be on the device; see {@link Builder#checksumSource}.
   *
   * <p>Called on the thread that makes the request (never the main thread on Android); it may block,
   * within the HTTP client's timeouts. Must be thread-safe.
   */
  public interface ChecksumSource {
    /**
     * The checksum for {@code nonce} and {@code curTime} (seconds since the epoch, as sent).
     *
     * @throws IOException if it cannot be obtained; the request then fails with it, unsent
     */
    String checksum(String nonce, String curTime) throws IOException;
  }

  /**
   * The account key held on this device. The key is fed to MD5 once; each checksum continues a copy
   * of that digest, which also spares the provider look-up per request.
   */
  private static final class LocalKey implements ChecksumSource {
    private final String accountKey;
    private final MessageDigest keyed;

    LocalKey(String accountKey) {
      this.accountKey = accountKey;
      this.keyed = md5();
      keyed.update(accountKey.getBytes(UTF_8));
    }

    @Override public String checksum(String nonce, String curTime) {
      MessageDigest digest;
      try {
        digest = (MessageDigest) keyed.clone();
      } catch (CloneNotSupportedException e) {
        digest = md5(); // a provider without copies: hash the key again
        digest.update(accountKey.getBytes(UTF_8));
      }
      digest.update(nonce.getBytes(UTF_8));
      digest.update(curTime.getBytes(UTF_8));
      byte[] md5 = digest.digest();
      return hex(md5, 0, md5.length);
    }

    private static MessageDigest md5() {
      try {
        return MessageDigest.getInstance("MD5");
      } catch (NoSuchAlgorithmException e) {
        throw new AssertionError("every Java and Android runtime has MD5", e);
      }
    }

    @Override public String toString() {
      return "accountKey=" + Redact.secret(accountKey);
    }
  }

  /**
   * 16 random bytes as hex. The random bytes are drawn {@value #NONCES_PER_DRAW} nonces at a time: a
   * nonce is public (it goes over the wire) and only has to be unique, and one draw instead of one
   * per request takes a lock and a system random read off most requests.
   */
  private String nonce() {
    synchronized (noncePool) {
      if (noncePoolUsed == noncePool.length) {
        random.nextBytes(noncePool);
        noncePoolUsed = 0;
      }
      String nonce = hex(noncePool, noncePoolUsed, NONCE_BYTES);
      noncePoolUsed += NONCE_BYTES;
      return nonce;
    }
  }

  private long nowMillis() {
    return clock.wallMillis() + learntOffsetMillis;
  }

  private void learn(long serverMillis) {
    if (clock instanceof SkewCorrectedClock) {
      ((SkewCorrectedClock) clock).observeServerTime(serverMillis);
    } else {
      learntOffsetMillis = serverMillis - clock.wallMillis();
    }
  }

  private static @Nullable String envelopeCode(Response response) {
    try {
      JsonReader reader = JsonReader.of(Peek.body(response, PEEK_BYTES));
      if (reader.peek() != JsonReader.Token.BEGIN_OBJECT) return null;
      reader.beginObject();
      while (reader.hasNext()) {
        if (reader.nextName().equals("code")) return Envelope.readCode(reader);
        reader.skipValue();
      }
      return null;
    } catch (IOException | RuntimeException e) {
      return null; // not an envelope: not a checksum refusal either
    }
  }

  @Override public String toString() {
    return "ChecksumSigner{namespace=" + namespace + ", " + checksums + "}";
  }

  /** Builds a {@link ChecksumSigner}. Not thread-safe. */
  public static final class Builder {
    private @Nullable String namespace;
    private @Nullable LocalKey key;
    private @Nullable ChecksumSource source;
    private Clock clock = Clock.system();
    private @Nullable Random random;

    Builder() {
    }

    /** The account's namespace, e.g. {@code OS123}, from the console's entity keys page. */
    public Builder namespace(String namespace) {
      if (namespace == null || !ResourceName.isToken(namespace)) {
        throw new IllegalArgumentException("namespace must be letters, digits, _ or -, e.g. OS123; was: "
            + (namespace == null || namespace.isEmpty() ? "empty" : namespace));
      }
      this.namespace = namespace;
      return this;
    }

    /** The account key from the console's entity keys page. Kept in this signer only. */
    public Builder accountKey(String accountKey) {
      this.key = new LocalKey(Redact.checkSecret(accountKey, "accountKey"));
      return this;
    }

    /**
     * Where checksums come from instead of an account key on this device: typically your backend,
     * which holds the key. Give this or {@link #accountKey}, not both.
     */
    public Builder checksumSource(ChecksumSource source) {
      if (source == null) throw new IllegalArgumentException("checksumSource must not be null");
      this.source = source;
      return this;
    }

    /** The clock for {@code X-CurTime}: the client's skew-corrected one, set by {@link EntityWebApi}. */
    Builder clock(Clock clock) {
      if (clock == null) throw new IllegalArgumentException("clock must not be null");
      this.clock = clock;
      return this;
    }

    /** Where nonces come from; tests pass a seeded one. */
    Builder nonceRandom(Random random) {
      if (random == null) throw new IllegalArgumentException("random must not be null");
      this.random = random;
      return this;
    }

    public ChecksumSigner build() {
      if (namespace == null) throw new IllegalStateException("namespace is required");
      if (key != null && source != null) throw bothChecksumSettings();
      ChecksumSource checksums = source != null ? source : key;
      if (checksums == null) {
        throw new IllegalStateException("accountKey or checksumSource is required");
      }
      return new ChecksumSigner(this, checksums);
    }

    /** An app that sets both may believe the key is off the device while it is not. */
    static IllegalStateException bothChecksumSettings() {
      return new IllegalStateException("accountKey and checksumSource are both set: give one (a"
          + " checksumSource keeps the account key off the device)");
    }

    @Override public String toString() {
      return "ChecksumSigner.Builder{namespace=" + namespace + "}";
    }
  }
}
