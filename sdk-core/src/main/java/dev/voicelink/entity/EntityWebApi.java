package dev.voicelink.entity;

import dev.voicelink.core.Cancellable;
import dev.voicelink.core.Clock;
import dev.voicelink.core.VoiceLinkCall;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.core.internal.Backoff;
import dev.voicelink.core.internal.BlockingCall;
import dev.voicelink.core.internal.ClientCore;
import dev.voicelink.core.internal.Form;
import dev.voicelink.core.internal.Log;
import dev.voicelink.core.internal.AbstractVoiceLinkCall;
import dev.voicelink.core.internal.SendOnce;
import dev.voicelink.core.internal.Tolerance;
import java.io.IOException;
import java.security.SecureRandom;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
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
 * X-CurTime} comes from the client's skew-corrected clock.
 *
 * <pre>{@code
 * EntityWebApi api = EntityWebApi.builder(client)
 *     .namespace("OS123")
 *     .accountKey(accountKey)
 *     .build();
 * UploadReceipt receipt = api.uploadResource(request).execute();
 * CheckResult result = api.awaitProcessed(receipt, 10, TimeUnit.MINUTES).execute(); // 5-5.5 min
 * }</pre>
 *
 * <p>Every operation returns a {@link VoiceLinkCall}: {@code execute()} blocks, {@code enqueue}
 * calls back on the client's callback executor, {@code cancel()} aborts the request in flight and the
 * waits between checks. Records are checked before anything is sent and streamed from their source
 * while the request is written. Refusals are {@link WebApiException}s ({@link
 * IpNotWhitelistedException} for {@code 20004}), transport failures and malformed responses {@link
 * IOException}s, records that do not fit {@link InvalidResourceException}s.
 *
 * <p>Thread-safe; build one per account and keep it as long as its {@link VoiceLinkClient}. It holds
 * no threads or connections of its own.
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

  private final ClientCore config;
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
    // Uploads and checks alike: the checks of awaitProcessed are counted, and a redirect would take
    // the signature, and an upload's records, to another address.
    this.client = SendOnce.client(config, config.http().newBuilder().addInterceptor(signer).build());
    this.maxResourceBytes = builder.maxResourceBytes;
  }

  /**
   * A builder of web API clients that use {@code client}.
   *
   * @throws IllegalStateException if the client has no {@code base_url} or is closed
   */
  public static Builder builder(VoiceLinkClient client) {
    return new Builder(ClientCore.open(client));
  }

  /**
   * A call that checks every record, then uploads the resource: form fields {@code appid}, {@code
   * res_name}, {@code pers_param} and {@code data} (Base64 of the resource text). The request's
   * {@linkplain UploadRequest.Builder#progressListener progress listener}, if any, is told how far the
   * body is sent. The call fails with an {@link InvalidResourceException} if a record does not fit the
   * definition or the resource is over the size limit (nothing is sent), a {@link WebApiException}
   * if the server refused the upload, an {@link IOException} on a transport failure or a malformed
   * response. Cancelling it aborts the request, even half-way through its body; an upload is never
   * retried.
   *
   * <p>A resource in another namespace than the one that signs is sent as it is, with a warning
   * logged once: the spec shows a skill's namespace and the account's on different console pages and
   * does not say they must be equal.
   */
  public VoiceLinkCall<UploadReceipt> uploadResource(final UploadRequest request) {
    if (request == null) throw new IllegalArgumentException("request must not be null");
    return new UploadCall(request.definition().name()) {
      @Override RequestBody body() throws IOException {
        return uploadBody(request, this);
      }
    };
  }

  /**
   * A call that uploads the records of a resource whose definition is not at hand (a ported app's
   * {@code CMD_SYNC}, for example): each record must be one JSON object, and the text is UTF-8 without
   * a byte-order mark (one is dropped); the platform checks the fields. Prefer {@link
   * #uploadResource(UploadRequest)}, which checks every record against its definition first. The
   * call fails with an {@link InvalidResourceException} if a record is not a JSON object or the
   * resource is over the size limit (nothing is sent), otherwise as {@link
   * #uploadResource(UploadRequest)} does; cancelling it works the same way.
   *
   * @throws IllegalArgumentException if {@code appid} is empty, {@code persParam} is an activation
   *     one, or an argument is null
   */
  public VoiceLinkCall<UploadReceipt> uploadResource(final String appid, final ResourceName name,
      final PersParam persParam, final RecordSource records) {
    UploadRequest.builder().appid(appid); // checks it, with the same message
    if (name == null) throw new IllegalArgumentException("name must not be null");
    if (persParam == null) throw new IllegalArgumentException("persParam must not be null");
    persParam.checkUpload();
    if (records == null) throw new IllegalArgumentException("records must not be null");
    return new UploadCall(name) {
      @Override RequestBody body() throws IOException {
        return uploadBody(appid, name, persParam,
            Records.anyObject(name, maxResourceBytes).readBy(this), records);
      }
    };
  }

  /** One upload: its body is made (records checked) on the worker thread, then sent once. */
  private abstract class UploadCall extends BlockingCall<UploadReceipt> {
    private final ResourceName name;

    UploadCall(ResourceName name) {
      super(config);
      this.name = name;
    }

    abstract RequestBody body() throws IOException;

    @Override protected UploadReceipt run() throws IOException, WebApiException {
      RequestBody body = body();
      checkNotCancelled();
      Log.debug(TAG, "upload-resource " + name + " (" + body.contentLength() + " bytes)");
      try (Response response = send(client.newCall(post("entity/upload-resource", body)))) {
        Envelope envelope = Envelope.read("upload-resource", response, tolerance,
            config.correctedClock());
        UploadReceipt receipt = new UploadReceipt(envelope.uploadSid(), envelope.csid(),
            config.correctedClock().wallMillis(), config.deviceClock().monotonicNanos());
        Log.info(TAG, "uploaded " + name + ": sid " + receipt.sid());
        return receipt;
      }
    }
  }

  /** The form body of an upload, its records checked and measured (nothing is sent). */
  RequestBody uploadBody(UploadRequest request) throws IOException {
    return uploadBody(request, null);
  }

  /** The body of {@code request}, its records checked and measured; {@code call} may cancel it. */
  private RequestBody uploadBody(UploadRequest request, @Nullable VoiceLinkCall<?> call)
      throws IOException {
    Records checker = Records.of(request.definition(), maxResourceBytes);
    return ProgressBody.of(uploadBody(request.appid(), request.definition().name(),
        request.persParam(), call != null ? checker.readBy(call) : checker, request.records()),
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
    new Form()
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
   * A call that asks whether the upload {@code sid} was processed. The platform wants this at least
   * 10 seconds after the upload: with a receipt at hand, use {@link #awaitProcessed}, which waits for
   * that. The call fails with a {@link WebApiException} if the server refused the check, an {@link
   * IOException} on a transport failure or a malformed response.
   *
   * @throws IllegalArgumentException if {@code sid} is empty or does not begin with {@code psn}, as
   *     an upload's sid does (protocol 4.9)
   */
  public VoiceLinkCall<CheckResult> checkResource(final String sid) {
    if (sid == null || sid.trim().isEmpty()) {
      throw new IllegalArgumentException("sid must not be empty: use the sid of the upload");
    }
    if (!sid.startsWith(Envelope.UPLOAD_SID_PREFIX)) {
      throw new IllegalArgumentException("sid must begin with " + Envelope.UPLOAD_SID_PREFIX
          + ", as the sid of an upload does; was: " + sid);
    }
    return new BlockingCall<CheckResult>(config) {
      @Override protected CheckResult run() throws IOException, WebApiException {
        return check(sid, this);
      }
    };
  }

  private CheckResult check(String sid, AbstractVoiceLinkCall<?> call)
      throws IOException, WebApiException {
    RequestBody body = new Form().add("sid", sid).build();
    RequestBody utf8 = RequestBody.create(bytes(body), FORM);
    try (Response response = call.send(client.newCall(post("entity/check-resource", utf8)))) {
      Envelope envelope = Envelope.read("check-resource", response, tolerance,
          config.correctedClock());
      return new CheckResult(envelope.uploadSid(), envelope.csid(),
          envelope.dataString("reply"), envelope.dataInteger("error"));
    }
  }

  /**
   * A call that checks the upload until it is processed or {@code timeout} (counted from the call)
   * has passed, and ends with the last check's result ({@link CheckResult#processed()} tells which).
   * The first check is made 10 seconds after the upload, later ones with a jittered doubling backoff
   * (up to 2 s, 4 s, ... 30 s; at least 1 s; at most {@value #MAX_CHECKS} checks, spread so that they
   * last at least until the upload's {@linkplain UploadReceipt#inEffectAtMillis() in-effect time};
   * the last one is made at the deadline; a deadline before the first check ends the call at that
   * check, as its result is a check's). A check answered with {@code Retry-After} waits that long,
   * up to 30 s. The call fails with a {@link WebApiException} if the server refused a check, with the
   * {@link IOException} of the last attempt if it failed in transport. Cancelling it stops the wait
   * and the check in flight.
   *
   * <p>How long it takes: a check says processed once the upload is in effect, 5 minutes after it, so
   * the first check at or after that time ends the call, 5 to 5.5 minutes after the upload. Give a
   * {@code timeout} of 6 minutes or more; with less, the call ends at the deadline, not processed.
   * docs/dynamic-entities.md ("How long awaitProcessed blocks") has the details.
   */
  public VoiceLinkCall<CheckResult> awaitProcessed(UploadReceipt receipt, long timeout,
      TimeUnit unit) {
    if (receipt == null) throw new IllegalArgumentException("receipt must not be null");
    if (unit == null) throw new IllegalArgumentException("unit must not be null");
    if (timeout < 0) throw new IllegalArgumentException("timeout must not be negative");
    return new ProcessedWait(receipt, unit.toNanos(timeout));
  }

  private Request post(String path, RequestBody body) {
    return new Request.Builder().url(config.webApiUrl(path)).post(body).build();
  }

  private static ByteString bytes(RequestBody body) throws IOException {
    Buffer buffer = new Buffer();
    body.writeTo(buffer);
    return buffer.readByteString();
  }


  /** Checks when the client's scheduler says; each check's exchange is aborted by a cancel. */
  private final class ProcessedWait extends AbstractVoiceLinkCall<CheckResult> implements Runnable {
    private final UploadReceipt receipt;
    private final long timeoutNanos;
    private final Clock clock = config.deviceClock();
    private long startNanos;
    private @Nullable Cancellable pending;
    private int checks;

    ProcessedWait(UploadReceipt receipt, long timeoutNanos) {
      super(config);
      this.receipt = receipt;
      this.timeoutNanos = timeoutNanos;
    }

    @Override protected void start() {
      startNanos = clock.monotonicNanos(); // a deadline as a sum would overflow for a huge timeout
      long firstCheck = receipt.uploadedAtNanos()
          + TimeUnit.MILLISECONDS.toNanos(UploadReceipt.CHECK_DELAY_MILLIS);
      schedule(Math.max(0, firstCheck - clock.monotonicNanos()));
    }

    private synchronized void schedule(long delayNanos) {
      if (isCancelled()) return;
      pending = config.scheduler().schedule(this, delayNanos, TimeUnit.NANOSECONDS);
    }

    @Override public void run() {
      if (isCancelled()) return;
      checks++;
      Exception failure = null;
      CheckResult result = null;
      try {
        result = check(receipt.sid(), this);
      } catch (WebApiException | RuntimeException e) {
        // A RuntimeException (from an app's checksum source or interceptor, say) ends the call, as
        // in BlockingCall; left to the scheduler's executor, it would leave the call waiting for ever.
        finish(null, e);
        return;
      } catch (Error e) {
        throw endedBy(e);
      } catch (IOException e) {
        if (isCancelled()) return;
        failure = e;
        Log.warn(TAG, "check-resource " + receipt.sid() + " failed (check " + checks + ")", e);
      } catch (Exception e) { // checked, yet undeclared: thrown by app code in Kotlin
        endedByUndeclared(e);
        return;
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
      long leftNanos = timeoutNanos - (now - startNanos);
      if (leftNanos <= 0) {
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
      schedule(Math.min(delayNanos, leftNanos));
    }

    private void finish(@Nullable CheckResult result, @Nullable Exception failure) {
      if (result != null) {
        succeed(result);
      } else {
        fail(failure);
      }
    }

    @Override protected synchronized void onCancel() {
      if (pending != null) pending.cancel();
    }
  }

  @Override public String toString() {
    return "EntityWebApi{" + config.baseUrl() + ", " + signer + "}";
  }

  /** Builds an {@link EntityWebApi}. Not thread-safe. */
  public static final class Builder {
    private final ClientCore config;
    private @Nullable String namespace;
    private @Nullable String accountKey;
    private ChecksumSigner.@Nullable ChecksumSource checksumSource;
    private @Nullable Random random;
    private long maxResourceBytes = ResourceEncoder.DEFAULT_MAX_RESOURCE_BYTES;

    Builder(ClientCore config) {
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
     * Where checksums come from instead of {@link #accountKey} (give one, not both): an
     * implementation that asks your backend keeps the account key off the device. See {@link
     * ChecksumSigner.ChecksumSource}.
     */
    public Builder checksumSource(ChecksumSigner.ChecksumSource source) {
      ChecksumSigner.builder().checksumSource(source);
      this.checksumSource = source;
      return this;
    }

    /** Where nonces and backoff jitter come from; tests pass a seeded one. */
    Builder random(Random random) {
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
      if (accountKey != null && checksumSource != null) {
        throw ChecksumSigner.Builder.bothChecksumSettings();
      }
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
