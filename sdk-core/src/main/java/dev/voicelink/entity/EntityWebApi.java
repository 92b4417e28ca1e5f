package dev.voicelink.entity;

import dev.voicelink.core.Cancellable;
import dev.voicelink.core.Clock;
import dev.voicelink.core.VoiceLinkConfig;
import dev.voicelink.core.internal.Backoff;
import dev.voicelink.core.internal.Log;
import dev.voicelink.core.internal.Tolerance;
import java.io.IOException;
import java.security.SecureRandom;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import okhttp3.FormBody;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okio.Buffer;
import okio.ByteString;

/**
 * The dynamic entity web API: {@code upload-resource} and {@code check-resource} under {@code
 * {base_url}/v2/voicelink/entity/}, every request signed by a {@link ChecksumSigner} whose {@code
 * X-CurTime} comes from the configuration's skew-corrected clock.
 *
 * <pre>{@code
 * EntityWebApi api = EntityWebApi.builder(config)
 *     .namespace("OS123")
 *     .accountKey(accountKey)
 *     .build();
 * UploadReceipt receipt = api.uploadResource(request);
 * CheckResult result = api.awaitProcessed(receipt, 2, TimeUnit.MINUTES); // first check 10 s after upload
 * }</pre>
 *
 * <p>Records are checked before anything is sent and streamed from their source while the request is
 * written. Refusals are {@link WebApiException}s ({@link IpNotWhitelistedException} for {@code 20004}),
 * transport failures and malformed responses {@link IOException}s.
 *
 * <p>Thread-safe; build one per account and reuse it. The blocking methods run on the caller's thread.
 * The asynchronous {@link #awaitProcessed(UploadReceipt, long, TimeUnit, CheckCallback)} runs its checks
 * and its callback on the configuration's {@linkplain VoiceLinkConfig#scheduler() scheduler}.
 */
public final class EntityWebApi {
  private static final String TAG = "entity";
  private static final MediaType FORM =
      MediaType.get("application/x-www-form-urlencoded; charset=utf-8");
  /** Bounds on the checks of one wait; the backoff doubles from the first to the last. */
  static final int MAX_CHECKS = 20;
  static final long FIRST_BACKOFF_MILLIS = 2_000L;
  static final long MAX_BACKOFF_MILLIS = 30_000L;
  /** Jitter may draw a wait near zero; a check right after the previous one learns nothing. */
  static final long MIN_BACKOFF_MILLIS = 1_000L;

  private final VoiceLinkConfig config;
  private final ChecksumSigner signer;
  private final OkHttpClient client;
  private final long maxResourceBytes;
  private final Backoff backoff;
  private final Tolerance tolerance = new Tolerance(TAG);

  private EntityWebApi(Builder builder) {
    this.config = builder.config;
    ChecksumSigner.Builder signerBuilder = ChecksumSigner.builder()
        .namespace(builder.namespace)
        .clock(config.correctedClock());
    if (builder.checksumSource != null) {
      signerBuilder.checksumSource(builder.checksumSource);
    } else {
      signerBuilder.accountKey(builder.accountKey);
    }
    Random random = builder.random != null ? builder.random : new SecureRandom();
    signerBuilder.nonceRandom(random);
    this.backoff = new Backoff(FIRST_BACKOFF_MILLIS, MAX_BACKOFF_MILLIS, TimeUnit.MILLISECONDS,
        MAX_CHECKS - 1, random);
    this.signer = signerBuilder.build();
    this.client = config.httpClient().newBuilder().addInterceptor(signer).build();
    this.maxResourceBytes = builder.maxResourceBytes;
  }

  public static Builder builder(VoiceLinkConfig config) {
    return new Builder(config);
  }

  /**
   * Checks every record, then uploads the resource: form fields {@code appid}, {@code res_name},
   * {@code pers_param} and {@code data} (Base64 of the resource text). The request's {@linkplain
   * UploadRequest.Builder#progressListener progress listener}, if any, is told how far the body is sent.
   *
   * <p>A resource in another namespace than the one that signs is sent as it is, with a warning
   * logged once: the spec shows a skill's namespace and the account's on different console pages and
   * does not say they must be equal.
   *
   * @throws InvalidResourceException if a record does not fit the definition, or the resource is over
   *     the size limit (nothing is sent)
   * @throws WebApiException if the server refused the upload
   * @throws IOException on a transport failure or a malformed response
   */
  public UploadReceipt uploadResource(UploadRequest request) throws IOException, WebApiException {
    return upload(request.definition().name(), uploadBody(request));
  }

  /**
   * Uploads the records of a resource whose definition is not at hand (a ported app's {@code
   * CMD_SYNC}, for example): each record must be one JSON object, and the text is UTF-8 without a
   * byte-order mark (one is dropped); the platform checks the fields. Prefer {@link
   * #uploadResource(UploadRequest)}, which checks every record against its definition first.
   *
   * @throws InvalidResourceException if a record is not a JSON object, or the resource is over the
   *     size limit (nothing is sent)
   * @throws IllegalArgumentException if {@code appid} is empty
   * @throws WebApiException if the server refused the upload
   * @throws IOException on a transport failure or a malformed response
   */
  public UploadReceipt uploadResource(String appid, ResourceName name, PersParam persParam,
      RecordSource records) throws IOException, WebApiException {
    UploadRequest.builder().appid(appid); // checks it, with the same message
    if (name == null) throw new IllegalArgumentException("name must not be null");
    if (persParam == null) throw new IllegalArgumentException("persParam must not be null");
    if (records == null) throw new IllegalArgumentException("records must not be null");
    return upload(name, uploadBody(appid, name, persParam, Records.anyObject(name,
        maxResourceBytes), records));
  }

  private UploadReceipt upload(ResourceName name, RequestBody body)
      throws IOException, WebApiException {
    Log.debug(TAG, "upload-resource " + name + " (" + body.contentLength() + " bytes)");
    try (Response response = client.newCall(post("entity/upload-resource", body)).execute()) {
      Envelope envelope = Envelope.read("upload-resource", response, tolerance);
      UploadReceipt receipt = new UploadReceipt(envelope.dataString("sid"), envelope.csid(),
          config.correctedClock().wallMillis(), config.deviceClock().monotonicNanos());
      Log.info(TAG, "uploaded " + name + ": sid " + receipt.sid());
      return receipt;
    }
  }

  /** The form body of an upload, its records checked and measured (nothing is sent). */
  RequestBody uploadBody(UploadRequest request) throws IOException {
    return ProgressBody.of(uploadBody(request.appid(), request.definition().name(),
        request.persParam(), Records.of(request.definition(), maxResourceBytes), request.records()),
        request, config.deviceClock());
  }

  private RequestBody uploadBody(String appid, ResourceName name, PersParam persParam,
      Records checker, RecordSource records) throws IOException {
    if (!name.namespace().equals(signer.namespace())) {
      tolerance.warnOnce("res_name-namespace", "res_name " + name + " is in namespace "
          + name.namespace() + ", not in " + signer.namespace() + " that signs the request: sent as"
          + " it is, the platform decides");
    }
    Buffer head = new Buffer();
    new FormBody.Builder()
        .add("appid", appid)
        .add("res_name", name.value())
        .add("pers_param", persParam.toJson())
        .build()
        .writeTo(head);
    head.writeUtf8("&data=");
    return StreamingBody.create(FORM, head.readByteString(), checker, records, ByteString.EMPTY,
        StreamingBody.Encoding.FORM_BASE64);
  }

  /**
   * Asks whether the upload {@code sid} was processed. The platform wants this at least 10 seconds
   * after the upload: with a receipt at hand, use {@link #awaitProcessed}, which waits for that.
   *
   * @throws WebApiException if the server refused the check
   * @throws IOException on a transport failure or a malformed response
   */
  public CheckResult checkResource(String sid) throws IOException, WebApiException {
    if (sid == null || sid.trim().isEmpty()) {
      throw new IllegalArgumentException("sid must not be empty: use the sid of the upload");
    }
    RequestBody body = new FormBody.Builder().add("sid", sid).build();
    RequestBody utf8 = RequestBody.create(bytes(body), FORM);
    try (Response response = client.newCall(post("entity/check-resource", utf8)).execute()) {
      Envelope envelope = Envelope.read("check-resource", response, tolerance);
      return new CheckResult(envelope.dataString("sid"), envelope.csid(),
          envelope.dataString("reply"), envelope.dataInteger("error"));
    }
  }

  /**
   * Blocks until the upload is processed or {@code timeout} has passed, and returns the last check's
   * result ({@link CheckResult#processed()} tells which). The first check is made 10 seconds after the
   * upload, later ones with a jittered doubling backoff (up to 2 s, 4 s, ... 30 s; at least 1 s; at most
   * {@value #MAX_CHECKS} checks, spread so that they last at least until the upload's in-effect time;
   * the last one is made at the deadline). A check answered with {@code Retry-After} waits that long,
   * up to 30 s.
   *
   * @throws WebApiException if the server refused a check
   * @throws IOException if the last attempt failed in transport
   * @throws InterruptedException if the thread was interrupted; the wait is cancelled
   */
  public CheckResult awaitProcessed(UploadReceipt receipt, long timeout, TimeUnit unit)
      throws IOException, WebApiException, InterruptedException {
    final CountDownLatch done = new CountDownLatch(1);
    final Object[] outcome = new Object[1];
    Cancellable wait = awaitProcessed(receipt, timeout, unit, new CheckCallback() {
      @Override public void onResult(CheckResult result) {
        outcome[0] = result;
        done.countDown();
      }

      @Override public void onFailure(Exception error) {
        outcome[0] = error;
        done.countDown();
      }
    });
    try {
      done.await();
    } catch (InterruptedException e) {
      wait.cancel();
      throw e;
    }
    synchronized (outcome) {
      Object result = outcome[0];
      if (result instanceof CheckResult) return (CheckResult) result;
      if (result instanceof WebApiException) throw (WebApiException) result;
      throw (IOException) result;
    }
  }

  /**
   * Checks the upload, starting 10 seconds after it, until it is processed or {@code timeout} has
   * passed; then calls {@code callback} exactly once, on the configuration's scheduler thread, unless
   * the wait was cancelled first. See {@link #awaitProcessed(UploadReceipt, long, TimeUnit)}.
   */
  public Cancellable awaitProcessed(UploadReceipt receipt, long timeout, TimeUnit unit,
      CheckCallback callback) {
    if (receipt == null) throw new IllegalArgumentException("receipt must not be null");
    if (unit == null) throw new IllegalArgumentException("unit must not be null");
    if (callback == null) throw new IllegalArgumentException("callback must not be null");
    if (timeout < 0) throw new IllegalArgumentException("timeout must not be negative");
    ProcessedWait wait = new ProcessedWait(receipt, unit.toNanos(timeout), callback);
    wait.start();
    return wait;
  }

  /** Receives the outcome of an asynchronous wait: exactly one of its methods is called, once. */
  public interface CheckCallback {
    /** The last check's result: processed, or not yet processed when the time ran out. */
    void onResult(CheckResult result);

    /** A {@link WebApiException} refusal, or the {@link IOException} of the last attempt. */
    void onFailure(Exception error);
  }

  private Request post(String path, RequestBody body) {
    return new Request.Builder().url(config.webApiUrl(path)).post(body).build();
  }

  private static ByteString bytes(RequestBody body) throws IOException {
    Buffer buffer = new Buffer();
    body.writeTo(buffer);
    return buffer.readByteString();
  }


  private final class ProcessedWait implements Cancellable, Runnable {
    private final UploadReceipt receipt;
    private final CheckCallback callback;
    private final long deadlineNanos;
    private final Clock clock = config.deviceClock();
    private volatile boolean cancelled;
    private @Nullable Cancellable pending;
    private int checks;

    ProcessedWait(UploadReceipt receipt, long timeoutNanos, CheckCallback callback) {
      this.receipt = receipt;
      this.callback = callback;
      this.deadlineNanos = clock.monotonicNanos() + timeoutNanos;
    }

    void start() {
      long firstCheck = receipt.uploadedAtNanos()
          + TimeUnit.MILLISECONDS.toNanos(UploadReceipt.CHECK_DELAY_MILLIS);
      schedule(Math.max(0, firstCheck - clock.monotonicNanos()));
    }

    private synchronized void schedule(long delayNanos) {
      if (cancelled) return;
      pending = config.scheduler().schedule(this, delayNanos, TimeUnit.NANOSECONDS);
    }

    @Override public void run() {
      if (cancelled) return;
      checks++;
      Exception failure = null;
      CheckResult result = null;
      try {
        result = checkResource(receipt.sid());
      } catch (WebApiException e) {
        finish(null, e);
        return;
      } catch (IOException e) {
        failure = e;
        Log.warn(TAG, "check-resource " + receipt.sid() + " failed (check " + checks + ")", e);
      }
      if (result != null && result.processed()) {
        finish(result, null);
        return;
      }
      if (!backoff.allows(checks)) {
        finish(result, failure);
        return;
      }
      long now = clock.monotonicNanos();
      if (now >= deadlineNanos) {
        finish(result, failure);
        return;
      }
      long delayNanos = TimeUnit.MILLISECONDS.toNanos(backoff.honouringRetryAfter(failure,
          Math.max(MIN_BACKOFF_MILLIS, backoff.delayMillis(checks))));
      // Spread what is left of the check budget at least until the upload takes effect, so that a
      // burst of early checks cannot use it up while the platform is still within its 5 minutes.
      long inEffectNanos = receipt.uploadedAtNanos()
          + TimeUnit.MILLISECONDS.toNanos(UploadReceipt.IN_EFFECT_DELAY_MILLIS);
      int checksLeft = MAX_CHECKS - checks;
      delayNanos = Math.max(delayNanos, (inEffectNanos - now) / checksLeft);
      // The last check happens at the deadline rather than not at all.
      schedule(Math.min(delayNanos, deadlineNanos - now));
    }

    private void finish(@Nullable CheckResult result, @Nullable Exception failure) {
      if (cancelled) return;
      cancelled = true; // nothing more runs, and cancel() after the callback has no effect
      if (result != null) {
        callback.onResult(result);
      } else {
        callback.onFailure(failure);
      }
    }

    @Override public synchronized void cancel() {
      cancelled = true;
      if (pending != null) pending.cancel();
    }

    @Override public boolean isCancelled() {
      return cancelled;
    }
  }

  @Override public String toString() {
    return "EntityWebApi{" + config.baseUrl() + ", " + signer + "}";
  }

  /** Builds an {@link EntityWebApi}. Not thread-safe. */
  public static final class Builder {
    private final VoiceLinkConfig config;
    private @Nullable String namespace;
    private @Nullable String accountKey;
    private ChecksumSigner.@Nullable ChecksumSource checksumSource;
    private @Nullable Random random;
    private long maxResourceBytes = ResourceEncoder.DEFAULT_MAX_RESOURCE_BYTES;

    Builder(VoiceLinkConfig config) {
      if (config == null) throw new IllegalArgumentException("config must not be null");
      config.baseUrl(); // fails now, naming the setting, if base_url is missing
      this.config = config;
    }

    /** The account's namespace, e.g. {@code OS123}. */
    public Builder namespace(String namespace) {
      ChecksumSigner.builder().namespace(namespace);
      this.namespace = namespace;
      return this;
    }

    /** The account key from the console; it stays inside the signer. */
    public Builder accountKey(String accountKey) {
      ChecksumSigner.builder().accountKey(accountKey);
      this.accountKey = accountKey;
      return this;
    }

    /**
     * Where checksums come from instead of {@link #accountKey}: an implementation that asks your
     * backend keeps the account key off the device. See {@link ChecksumSigner.ChecksumSource}.
     */
    public Builder checksumSource(ChecksumSigner.ChecksumSource source) {
      ChecksumSigner.builder().checksumSource(source);
      this.checksumSource = source;
      return this;
    }

    /** Where nonces and backoff jitter come from; defaults to a {@link SecureRandom}. */
    public Builder random(Random random) {
      if (random == null) throw new IllegalArgumentException("random must not be null");
      this.random = random;
      return this;
    }

    /** The largest resource text to send, in bytes before Base64; see {@link ResourceEncoder}. */
    public Builder maxResourceBytes(long maxResourceBytes) {
      ResourceEncoder.checkLimit(maxResourceBytes);
      this.maxResourceBytes = maxResourceBytes;
      return this;
    }

    public EntityWebApi build() {
      if (namespace == null) throw new IllegalStateException("namespace is required, e.g. OS123");
      if (accountKey == null && checksumSource == null) {
        throw new IllegalStateException("accountKey (console, entity keys page) or checksumSource"
            + " (your backend) is required");
      }
      return new EntityWebApi(this);
    }

    @Override public String toString() {
      return "EntityWebApi.Builder{namespace=" + namespace + "}";
    }
  }
}
