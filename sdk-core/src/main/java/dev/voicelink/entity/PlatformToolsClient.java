package dev.voicelink.entity;

import com.squareup.moshi.JsonDataException;
import com.squareup.moshi.JsonEncodingException;
import com.squareup.moshi.JsonReader;
import dev.voicelink.auth.TokenSource;
import dev.voicelink.core.ServerRefusalException;
import dev.voicelink.core.VoiceLinkCall;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.core.internal.BlockingCall;
import dev.voicelink.core.internal.ClientCore;
import dev.voicelink.core.internal.HttpFailure;
import dev.voicelink.core.internal.JsonText;
import dev.voicelink.core.internal.Log;
import dev.voicelink.core.internal.Scrub;
import dev.voicelink.core.internal.SendOnce;
import dev.voicelink.core.internal.Tolerance;
import dev.voicelink.core.internal.Utf8Line;
import java.io.EOFException;
import java.io.IOException;
import org.jspecify.annotations.Nullable;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okio.ByteString;

/**
 * Uploads entities through the platform tools endpoint ({@code POST
 * {platform_url}/tools/upload_entities}, JSON), authorized with the token that the dimension needs:
 * the user token for {@code user}, the device token for {@code device}, the cloud (client credentials)
 * token for {@code client}.
 *
 * <pre>{@code
 * PlatformToolsClient tools = PlatformToolsClient.builder(client)
 *     .userTokens(userTokenManager)
 *     .build();
 * String sid = tools.uploadEntities(contacts, RecordSource.fromFile(file), null).execute();
 * }</pre>
 *
 * <p>Each upload is a {@link VoiceLinkCall}: {@code execute()} blocks, {@code enqueue} calls back on
 * the client's callback executor, {@code cancel()} aborts the request. Records are checked before
 * any request (including a token refresh) is made. Thread-safe; holds no resources of its own: keep
 * it as long as its {@link VoiceLinkClient}.
 */
public final class PlatformToolsClient {
  private static final String TAG = "entity";
  /** As protocol 4.7 writes it: no charset parameter; JSON is UTF-8 by definition. */
  private static final MediaType JSON = MediaType.get("application/json");

  private final ClientCore config;
  private final OkHttpClient uploadHttp;
  private final @Nullable TokenSource userTokens;
  private final @Nullable TokenSource deviceTokens;
  private final @Nullable TokenSource cloudTokens;
  private final long maxResourceBytes;
  private final Tolerance tolerance = new Tolerance(TAG);

  private PlatformToolsClient(Builder builder) {
    this.config = builder.config;
    this.uploadHttp = SendOnce.client(config, config.http());
    this.userTokens = builder.userTokens;
    this.deviceTokens = builder.deviceTokens;
    this.cloudTokens = builder.cloudTokens;
    this.maxResourceBytes = builder.maxResourceBytes;
  }

  /**
   * A builder of platform tools clients that use {@code client}.
   *
   * @throws IllegalStateException if the client has no {@code platform_url} or is closed
   */
  public static Builder builder(VoiceLinkClient client) {
    return new Builder(ClientCore.open(client));
  }

  /**
   * A call that uploads the records of {@code definition}, each checked against its fields first,
   * and ends with the upload's {@code sid}. The upload type is the definition's dimension ({@code
   * user}, {@code client} or {@code device}). The call fails with an {@link
   * InvalidResourceException} if a record does not fit (nothing is sent), a {@link
   * PlatformUploadException} if the platform refused the upload, another {@link
   * ServerRefusalException} if the token source could not get a token, an {@link IOException} on a
   * transport failure or a malformed response.
   *
   * @param appid only when the upload must be effective for the front interceptor web API
   * @throws IllegalArgumentException for a custom dimension, which this endpoint does not take
   * @throws IllegalStateException if no token source was given for the dimension
   */
  public VoiceLinkCall<String> uploadEntities(ResourceDefinition definition, RecordSource records,
      @Nullable String appid) {
    if (definition == null) throw new IllegalArgumentException("definition must not be null");
    return upload(definition.dimension(), definition.name(),
        Records.of(definition, maxResourceBytes), records, appid);
  }

  /**
   * Uploads records without a definition at hand: each record must be a JSON object, and the platform
   * checks the fields. Prefer {@link #uploadEntities(ResourceDefinition, RecordSource, String)}.
   */
  public VoiceLinkCall<String> uploadEntities(Dimension dimension, ResourceName name,
      RecordSource records, @Nullable String appid) {
    return upload(dimension, name, Records.anyObject(name, maxResourceBytes), records, appid);
  }

  private VoiceLinkCall<String> upload(final Dimension dimension, final ResourceName name,
      final Records checker, final RecordSource records, final @Nullable String appid) {
    if (dimension == null) throw new IllegalArgumentException("dimension must not be null");
    if (name == null) throw new IllegalArgumentException("name must not be null");
    if (records == null) throw new IllegalArgumentException("records must not be null");
    if (dimension.isCustom()) {
      throw new IllegalArgumentException("the platform upload type is user, client or device; custom "
          + "dimension " + dimension.name() + " is uploaded with EntityWebApi");
    }
    if (appid != null && appid.trim().isEmpty()) {
      throw new IllegalArgumentException("appid must be null or non-empty");
    }
    if (appid != null) Utf8Line.checkNoLoneSurrogate("appid", appid); // "?" would name another owner
    final TokenSource tokens = tokensFor(dimension);
    return new BlockingCall<String>(config) {
      @Override protected String run() throws IOException, ServerRefusalException {
        return upload(dimension, name, checker, records, appid, tokens, this);
      }
    };
  }

  private String upload(Dimension dimension, ResourceName name, Records checker, RecordSource records,
      @Nullable String appid, TokenSource tokens, BlockingCall<String> call)
      throws IOException, ServerRefusalException {
    String head = new JsonText().beginObject()
        .name("type").value(dimension.platformType())
        .name("resource_name").value(name.value())
        .text() + ",\"data\":[";
    String tail = "]" + (appid != null ? ",\"appid\":" + new JsonText().value(appid).text() : "") + "}";
    RequestBody body = StreamingBody.create(JSON, ByteString.encodeUtf8(head), checker.readBy(call),
        records, ByteString.encodeUtf8(tail), StreamingBody.Encoding.JSON_ARRAY);
    String token = tokens.accessToken();
    for (boolean first = true; ; first = false) {
      call.checkNotCancelled();
      Request request = new Request.Builder()
          .url(config.platformEndpoint("tools/upload_entities"))
          .header("Authorization", token)
          .post(body)
          .build();
      String fresh = null;
      try (Response response = call.send(uploadHttp.newCall(request))) {
        if (response.code() == 401) fresh = afterTokenRefused(response, tokens, first);
        if (fresh == null) {
          String sid = readResponse(response);
          Log.info(TAG, "upload_entities " + name + " (" + dimension.platformType() + "): sid " + sid);
          return sid;
        }
      }
      token = fresh;
    }
  }

  /**
   * A 401 (not shown in protocol 4.7) refuses the token, so the platform did not take the upload: the
   * source is told, and the first refusal is sent once more when the source has a fresh token. Not
   * when OkHttp already sent it again (the app's authenticator answered the 401): that one stands.
   *
   * @return the token to send the upload again with, or null to read {@code response} as the answer
   */
  private @Nullable String afterTokenRefused(Response response, TokenSource tokens, boolean first)
      throws IOException, ServerRefusalException {
    String refused = response.request().header("Authorization");
    if (refused == null) return null;
    tokens.invalidate(refused);
    if (!first || response.priorResponse() != null) return null;
    String fresh = tokens.accessToken();
    if (fresh.equals(refused)) return null; // a source that cannot refresh
    tolerance.warnOnce("upload_entities-401", "upload_entities answered HTTP 401: the token was"
        + " refused, so the upload was not taken; it is sent once more with a fresh token");
    return fresh;
  }

  private TokenSource tokensFor(Dimension dimension) {
    TokenSource source;
    String kind;
    if (dimension.equals(Dimension.USER)) {
      source = userTokens;
      kind = "userTokens (type user uses the user token)";
    } else if (dimension.equals(Dimension.DEVICE)) {
      source = deviceTokens;
      kind = "deviceTokens (type device uses the device token)";
    } else {
      source = cloudTokens;
      kind = "cloudTokens (type client uses the cloud token of the client-credentials grant)";
    }
    if (source == null) {
      throw new IllegalStateException("no token source for " + dimension.platformType()
          + " uploads: set PlatformToolsClient.Builder." + kind);
    }
    return source;
  }

  /**
   * A 2xx with a {@code sid} is success whatever else it holds (a platform may add {@code code} and
   * {@code message}); a 2xx without one is an error, typed if it carries a {@code code}. Any other
   * status is a refusal with the {@code code}, {@code message} and {@code sid} of protocol 7.2.1.
   */
  private String readResponse(Response response) throws IOException, PlatformUploadException {
    if (response.isRedirect()) {
      throw HttpFailure.redirect(response, "upload_entities requests", "the user's records");
    }
    JsonAnswer answer = new JsonAnswer("upload_entities", response, config.correctedClock());
    JsonReader reader = answer.reader();
    String sid = null;
    String code = null;
    String message = null;
    Scrub.Echoes echoes = Scrub.echoesOf(response.request());
    try {
      reader.beginObject();
      while (reader.hasNext()) {
        String name = reader.nextName();
        if (reader.peek() != JsonReader.Token.STRING && reader.peek() != JsonReader.Token.NUMBER) {
          reader.skipValue();
        } else if (name.equals("sid")) { // each told in exceptions: it may echo the token refused
          sid = echoes.inServerText(reader.nextString());
        } else if (name.equals("code")) {
          code = echoes.inServerText(reader.nextString());
        } else if (name.equals("message")) {
          message = echoes.inServerText(reader.nextString());
        } else {
          reader.skipValue();
        }
      }
      reader.endObject();
    } catch (JsonDataException | JsonEncodingException | EOFException e) {
      throw answer.unreadable(e);
    }
    if (response.isSuccessful() && sid != null) {
      if (code == null) return sid;
      if (code.equals(Envelope.ALSO_SUCCESS) || code.equals(Envelope.SUCCESS)) {
        tolerance.warnOnce("upload_entities-code", "upload_entities answered HTTP "
            + response.code() + " with code " + code + " besides its sid: the sid counts, the"
            + " upload succeeded");
        return sid;
      }
      // The failure body of 4.7 in a 2xx: taking it for success would lose the upload unseen.
      tolerance.warnOnce("upload_entities-failure", "upload_entities answered HTTP "
          + response.code() + " with code " + code + " besides its sid: read as the refusal its"
          + " code says");
    }
    if (response.isSuccessful() && code == null) {
      throw answer.malformed("sid is missing"); // a 2xx: never a ServerBusyException
    }
    if (code == null) {
      throw HttpFailure.of(response, "upload_entities failed with HTTP " + response.code()
          + " and no code", config.correctedClock());
    }
    throw new PlatformUploadException(response.code(), code, message != null ? message : "", sid);
  }

  @Override public String toString() {
    return "PlatformToolsClient{" + config.platformUrl() + "}";
  }

  /**
   * Builds a {@link PlatformToolsClient}; give a token source for each dimension you upload. Not
   * thread-safe.
   */
  public static final class Builder {
    private final ClientCore config;
    private @Nullable TokenSource userTokens;
    private @Nullable TokenSource deviceTokens;
    private @Nullable TokenSource cloudTokens;
    private long maxResourceBytes = ResourceEncoder.DEFAULT_MAX_RESOURCE_BYTES;

    Builder(ClientCore config) {
      config.platformUrl(); // fails now, naming the setting, if platform_url is missing
      this.config = config;
    }

    /** Tokens of the signed-in user, for {@code user} uploads. */
    public Builder userTokens(TokenSource tokens) {
      this.userTokens = require(tokens, "userTokens");
      return this;
    }

    /** Tokens of the device, for {@code device} uploads. */
    public Builder deviceTokens(TokenSource tokens) {
      this.deviceTokens = require(tokens, "deviceTokens");
      return this;
    }

    /** Cloud tokens (client credentials), for {@code client} uploads. */
    public Builder cloudTokens(TokenSource tokens) {
      this.cloudTokens = require(tokens, "cloudTokens");
      return this;
    }

    /** The largest resource text to send, in bytes; see {@link ResourceEncoder}. */
    public Builder maxResourceBytes(long maxResourceBytes) {
      ResourceEncoder.checkLimit(maxResourceBytes);
      this.maxResourceBytes = maxResourceBytes;
      return this;
    }

    public PlatformToolsClient build() {
      if (userTokens == null && deviceTokens == null && cloudTokens == null) {
        throw new IllegalStateException("give at least one token source: userTokens, deviceTokens"
            + " or cloudTokens");
      }
      return new PlatformToolsClient(this);
    }

    private static TokenSource require(@Nullable TokenSource tokens, String name) {
      if (tokens == null) throw new IllegalArgumentException(name + " must not be null");
      return tokens;
    }
  }
}
