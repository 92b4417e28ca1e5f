package dev.voicelink.core.internal;

import dev.voicelink.core.Clock;
import dev.voicelink.core.HttpLogLevel;
import dev.voicelink.core.VoiceLinkLog.Level;
import java.io.IOException;
import java.nio.charset.Charset;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import okhttp3.Headers;
import okhttp3.Interceptor;
import okhttp3.MediaType;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.Buffer;
import okio.BufferedSink;
import okio.ForwardingSink;
import okio.Okio;

/**
 * Logs HTTP traffic as it goes over the wire (a network interceptor), secrets redacted by {@link
 * Scrub}. A request body is never written an extra time: it is captured, up to {@link
 * #MAX_BODY_BYTES}, while OkHttp writes it, and logged once written; so a one-shot or 50 MB upload is
 * sent exactly as without logging. A response body is peeked, up to the same bound, not consumed.
 *
 * <p>The request line and headers are one log message, the request body another, the response a
 * third: lines of concurrent calls cannot interleave inside a message.
 */
public final class HttpLogger implements Interceptor {
  public static final String TAG = "http";
  static final int MAX_BODY_BYTES = 4096;
  /** The form field and JSON member that carry entity records: personal data, and bulky. */
  static final String BULK_FIELD = "data";
  private static final Charset UTF_8 = Charset.forName("UTF-8");

  private final HttpLogLevel level;
  /** The client's clock: a call's time in the log is measured as every wait of the SDK is. */
  private final Clock clock;

  /** @param level any but {@code NONE}: a client that logs nothing has no logger */
  public HttpLogger(HttpLogLevel level, Clock clock) {
    this.level = level;
    this.clock = clock;
  }

  @Override public Response intercept(Chain chain) throws IOException {
    Request request = chain.request();
    if (!Log.isLoggable(Level.DEBUG, TAG)) return chain.proceed(request);
    RequestBody body = request.body();
    StringBuilder head = new StringBuilder("--> ").append(request.method()).append(' ')
        .append(Scrub.url(request.url()));
    if (body != null) head.append(" (").append(size(body.contentLength())).append(" body)");
    if (level != HttpLogLevel.BASIC) {
      appendHeaders(head, request.headers());
    }
    Log.debug(TAG, head.toString());

    CapturingBody capture = null;
    if (level == HttpLogLevel.BODY && body != null && !body.isDuplex()) {
      capture = new CapturingBody(body);
      request = request.newBuilder().method(request.method(), capture).build();
    }
    long start = clock.monotonicNanos();
    Response response;
    try {
      response = chain.proceed(request);
    } catch (IOException e) {
      logRequestBody(request, capture);
      Log.debug(TAG, "<-- HTTP FAILED: " + e.getClass().getSimpleName() + " "
          + Scrub.url(request.url()));
      throw e;
    }
    long tookMillis = TimeUnit.NANOSECONDS.toMillis(clock.monotonicNanos() - start);
    logRequestBody(request, capture);

    ResponseBody responseBody = response.body();
    long length = responseBody != null ? responseBody.contentLength() : 0;
    // What the server sent back may echo a secret of the request (an error's description).
    Scrub.Echoes echoes = Scrub.echoesOf(response.request());
    StringBuilder line = new StringBuilder("<-- ").append(response.code());
    if (!response.message().isEmpty()) line.append(' ').append(echoes.from(response.message()));
    line.append(' ').append(Scrub.url(response.request().url())).append(" (").append(tookMillis)
        .append(" ms, ").append(size(length)).append(" body)");
    if (level != HttpLogLevel.BASIC) appendHeaders(line, response.headers(), echoes);
    if (level == HttpLogLevel.BODY) line.append('\n').append(echoes.from(responseBodyText(response)));
    Log.debug(TAG, line.toString());
    return response;
  }

  /**
   * Logs a WebSocket upgrade request: OkHttp does not pass WebSocket calls through network
   * interceptors, so the channel reports its own.
   */
  public void logUpgrade(Request request) {
    if (!Log.isLoggable(Level.DEBUG, TAG)) return;
    StringBuilder line = new StringBuilder("--> ").append(request.method()).append(' ')
        .append(Scrub.url(request.url())).append(" (WebSocket upgrade)");
    if (level != HttpLogLevel.BASIC) appendHeaders(line, request.headers());
    Log.debug(TAG, line.toString());
  }

  /** Logs the answer to a WebSocket upgrade (101 when it was accepted). */
  public void logUpgradeResponse(Response response) {
    if (!Log.isLoggable(Level.DEBUG, TAG)) return;
    Scrub.Echoes echoes = Scrub.echoesOf(response.request());
    StringBuilder line = new StringBuilder("<-- ").append(response.code());
    if (!response.message().isEmpty()) line.append(' ').append(echoes.from(response.message()));
    line.append(' ').append(Scrub.url(response.request().url())).append(" (WebSocket upgrade)");
    if (level != HttpLogLevel.BASIC) appendHeaders(line, response.headers(), echoes);
    Log.debug(TAG, line.toString());
  }

  /** Whether bodies are logged ({@code HttpLogLevel.BODY}): the interaction channel's frames too. */
  public boolean logsBodies() {
    return level == HttpLogLevel.BODY;
  }

  private void logRequestBody(Request request, @Nullable CapturingBody capture) {
    if (level != HttpLogLevel.BODY || request.body() == null) return;
    StringBuilder text = new StringBuilder("--> body of ").append(request.method()).append(' ')
        .append(Scrub.url(request.url())).append('\n');
    RequestBody body = request.body();
    if (capture == null) {
      text.append("(duplex body, not logged)");
    } else if (capture.written == 0 && contentLength(body) != 0) {
      text.append("(nothing written)");
    } else {
      boolean truncated = capture.written > capture.captured.size();
      text.append(bodyText(capture.captured.readByteString().toByteArray(), body.contentType(),
          truncated, true));
      if (truncated) {
        text.append("\n(first ").append(MAX_BODY_BYTES).append(" of ").append(capture.written)
            .append(" bytes written)");
      }
    }
    Log.debug(TAG, text.toString());
  }

  private static long contentLength(RequestBody body) {
    try {
      return body.contentLength();
    } catch (IOException e) {
      return -1;
    }
  }

  private static String responseBodyText(Response response) {
    ResponseBody body = response.body();
    if (body == null || response.code() == 101 || response.code() == 204
        || response.code() == 304) {
      return "(no body)";
    }
    String encoding = response.header("Content-Encoding");
    if (encoding != null && !encoding.equalsIgnoreCase("identity")) {
      return "(" + encoding + "-encoded body, not logged)";
    }
    try {
      byte[] peeked = Peek.body(response, MAX_BODY_BYTES + 1L).readByteArray();
      boolean truncated = peeked.length > MAX_BODY_BYTES;
      byte[] shown = peeked;
      if (truncated) {
        shown = new byte[MAX_BODY_BYTES];
        System.arraycopy(peeked, 0, shown, 0, MAX_BODY_BYTES);
      }
      return bodyText(shown, body.contentType(), truncated, false)
          + (truncated ? "\n(first " + MAX_BODY_BYTES + " bytes)" : "");
    } catch (IOException e) {
      return "(body not readable: " + e.getClass().getSimpleName() + ")";
    }
  }

  static String bodyText(byte[] bytes, @Nullable MediaType type, boolean truncated,
      boolean request) {
    if (bytes.length == 0) return "(empty body)";
    String subtype = type == null ? "" : type.subtype().toLowerCase(Locale.ROOT);
    String mainType = type == null ? "" : type.type().toLowerCase(Locale.ROOT);
    Charset charset = type == null ? UTF_8 : type.charset(UTF_8);
    if (!isText(bytes) || charset == null) {
      return "(binary body of " + bytes.length + (truncated ? "+" : "") + " bytes, not logged)";
    }
    String text = new String(bytes, charset);
    String bulk = request ? BULK_FIELD : null;
    if (subtype.equals("x-www-form-urlencoded")) return Scrub.form(text, bulk, truncated);
    if (subtype.contains("json") || (mainType.isEmpty() && looksLikeJson(text))) {
      return Scrub.json(text, bulk, truncated);
    }
    return Scrub.text(text);
  }

  private static boolean looksLikeJson(String text) {
    String t = text.trim();
    return t.startsWith("{") || t.startsWith("[");
  }

  /** Text, not binary: no control characters other than whitespace in the first bytes. */
  private static boolean isText(byte[] bytes) {
    int n = Math.min(bytes.length, 64);
    for (int i = 0; i < n; i++) {
      int b = bytes[i] & 0xff;
      if (b < 0x20 && b != '\n' && b != '\r' && b != '\t') return false;
    }
    return true;
  }

  private static void appendHeaders(StringBuilder out, Headers headers, Scrub.Echoes echoes) {
    StringBuilder own = new StringBuilder();
    appendHeaders(own, headers);
    out.append(echoes.from(own.toString()));
  }

  private static void appendHeaders(StringBuilder out, Headers headers) {
    for (int i = 0; i < headers.size(); i++) {
      String name = headers.name(i);
      out.append('\n').append(name).append(": ").append(Scrub.header(name, headers.value(i)));
    }
  }

  private static String size(long length) {
    return length < 0 ? "unknown-length" : length + "-byte";
  }

  /** The request body as the app made it, with a copy of its first bytes taken on the way to the socket. */
  static final class CapturingBody extends ForwardingBody {
    final Buffer captured = new Buffer();
    long written;

    CapturingBody(RequestBody delegate) {
      super(delegate);
    }

    @Override public void writeTo(BufferedSink sink) throws IOException {
      BufferedSink tee = Okio.buffer(new ForwardingSink(sink) {
        @Override public void write(Buffer source, long byteCount) throws IOException {
          long room = MAX_BODY_BYTES - captured.size();
          if (room > 0) source.copyTo(captured, 0, Math.min(room, byteCount));
          written += byteCount;
          super.write(source, byteCount);
        }
      });
      delegate.writeTo(tee);
      tee.emit();
    }
  }
}
