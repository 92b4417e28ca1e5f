package dev.voicelink.core.internal;

import java.io.IOException;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.TimeUnit;
import okhttp3.Authenticator;
import okhttp3.Call;
import okhttp3.Interceptor;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.Buffer;
import okio.BufferedSink;
import okio.BufferedSource;
import okio.ForwardingSource;
import okio.Okio;
import org.jspecify.annotations.Nullable;

/**
 * Clients for requests the server must see exactly as often as the SDK sends them, and only at the
 * address it sends them to: polls keep their interval, a refresh is not replayed with a refresh
 * token already used, an upload the server may have processed is not sent again. Left to itself,
 * OkHttp sends a request again after a dropped connection, at once after a 503 with {@code
 * Retry-After: 0} or a 408, and on to wherever a 3xx points, with its body and every header but
 * {@code Authorization}: the device code, a refresh token or client secret, the user's records, the
 * web API's signature.
 *
 * <p>Two rules keep every request once-only and still survive the commonest failure there is, a
 * kept-alive connection that the server, a proxy or a NAT closed while it sat idle (docs/reliability.md,
 * "Connections that servers close"):
 *
 * <ul>
 *   <li>A request is repeated only while not a byte of its body has been written: its body turns
 *       one-shot the moment OkHttp starts writing it, and OkHttp repeats no one-shot body. What is
 *       left is what never reached a server: a connection that could not be made (OkHttp then tries
 *       the host's next address), an HTTP/2 connection the server had already shut down, and a
 *       pooled connection this client would not use (next rule).
 *   <li>A connection that has been idle for {@link ConnectionIdleness#LIMIT_MILLIS} or longer, or
 *       whose server's close has arrived, is never used: a server may be closing it as the request
 *       goes out, and the request would be lost unseen or, read, could not be told from one the
 *       server processed. Such a connection is closed before anything is written, and the request
 *       goes out on another.
 * </ul>
 *
 * <p>A body can still be written again for a refusal the SDK or the app answers (a checksum signed
 * again, a 401 answered by the app's authenticator) and for an HTTP/2 stream the server refused
 * unprocessed. Nothing else sends it again: not an interceptor of the app's that proceeds once more
 * after an {@code IOException}.
 */
public final class SendOnce {
  /**
   * How long an answer may stay silent when the app's client sets no read timeout (one that streams):
   * the SDK's answers are small and immediate, and a read timeout fires only on silence, so an answer
   * on its way is still read to its end.
   */
  private static final long SILENCE_LIMIT_MILLIS = 30_000;

  private SendOnce() {
  }

  /**
   * {@code client} on the connections of {@code core} that carry once-only requests, repeating a
   * request only before its body is written, without redirects, and never waiting for ever on a
   * silent server.
   */
  public static OkHttpClient client(ClientCore core, OkHttpClient client) {
    ConnectionIdleness idleness = core.onceOnlyConnections();
    OkHttpClient.Builder once = client.newBuilder()
        .authenticator(followUpKept(client.authenticator()))
        .proxyAuthenticator(followUpKept(client.proxyAuthenticator()))
        .connectionPool(idleness.pool())
        .retryOnConnectionFailure(true)
        .followRedirects(false)
        .addInterceptor(SendOnce::gate)
        .addNetworkInterceptor(SendOnce::reopenAfterRefusal);
    if (client.readTimeoutMillis() == 0) {
      // A server that stops answering would otherwise hold a refresh (and every caller waiting for a
      // token), an upload, or awaitProcessed past its own deadline, for ever.
      once.readTimeout(SILENCE_LIMIT_MILLIS, TimeUnit.MILLISECONDS);
    }
    // First of the network interceptors: a connection refused here was never written to, and the
    // app's network interceptors (a logger) see only what goes out.
    once.networkInterceptors().add(0, idleness);
    return once.build();
  }

  /**
   * The innermost application interceptor: what it passes on is what OkHttp may repeat, until the
   * body is written. A request stopped before a stale connection is sent again on another. The
   * refusal emptied the pool of its idle connections, so a second refusal is rare; the tries stay
   * bounded all the same.
   */
  private static Response gate(Interceptor.Chain chain) throws IOException {
    Request request = chain.request();
    RequestBody body = request.body();
    synchronized (LOST) {
      if (LOST.containsKey(chain.call())) {
        throw new IOException("not sent again: an earlier attempt of this call was written and its"
            + " answer lost, and the server may have processed it");
      }
    }
    FollowUp followUp = new FollowUp();
    Request.Builder gated = request.newBuilder().tag(FollowUp.class, followUp);
    OnceWritten onceWritten = null;
    if (body != null && !body.isOneShot()) {
      onceWritten = new OnceWritten(body);
      gated.method(request.method(), onceWritten).tag(OnceWritten.class, onceWritten);
    }
    Request once = gated.build();
    for (int attempt = 1; ; attempt++) {
      try {
        // After an authenticator answered a refusal, its request is the one to send: the first
        // was refused already, with credentials the authenticator has replaced.
        Request next = followUp.request;
        Response response = chain.proceed(next != null ? next : once);
        // Sent on another connection, the authenticator's request began OkHttp's history of the
        // call again: its answer is shown after the refusal it answered, as OkHttp would show it.
        Response refusal = followUp.refusal;
        if (next != null && refusal != null && response.priorResponse() == null) {
          response = response.newBuilder().priorResponse(refusal).build();
        }
        return onceWritten != null ? lostIfItsBodyFails(chain.call(), response) : response;
      } catch (ConnectionIdleness.NotSentException e) {
        if (attempt > ConnectionIdleness.MAX_IDLE_CONNECTIONS) throw e;
      } catch (IOException e) {
        if (attempt <= ConnectionIdleness.MAX_IDLE_CONNECTIONS && refusedUnprocessed(e)) {
          if (onceWritten != null) onceWritten.written = false;
          continue;
        }
        // An interceptor of the app's that retries (proceed again after an IOException) would
        // otherwise send it once more: this call sends nothing again.
        if (onceWritten != null && onceWritten.written) {
          synchronized (LOST) {
            LOST.put(chain.call(), Boolean.TRUE);
          }
        }
        throw e;
      }
    }
  }

  /**
   * {@code response}, whose body failing as it is read (by an app interceptor that logs or peeks at it,
   * outside this gate, as well as by the SDK) leaves {@code call} lost: the server answered, so it may
   * have processed the request, and a retrying interceptor must not send it again.
   */
  private static Response lostIfItsBodyFails(Call call, Response response) {
    ResponseBody body = response.body();
    if (body == null) return response;
    BufferedSource source = Okio.buffer(new ForwardingSource(body.source()) {
      @Override public long read(Buffer sink, long byteCount) throws IOException {
        try {
          return super.read(sink, byteCount);
        } catch (IOException e) {
          synchronized (LOST) {
            LOST.put(call, Boolean.TRUE);
          }
          throw e;
        }
      }
    });
    return response.newBuilder()
        .body(ResponseBody.create(source, body.contentType(), body.contentLength())).build();
  }

  /** The calls an attempt of which was written and then failed; weak, as a call ends. */
  private static final Map<Call, Boolean> LOST = new WeakHashMap<>();

  /**
   * Whether {@code e} is an HTTP/2 stream the server refused before any processing (RST_STREAM
   * REFUSED_STREAM, RFC 9113 8.7: one that crossed the GOAWAY of a server closing an idle connection):
   * safe to send again. Told by OkHttp's message, as its exception's class is not its public API.
   */
  private static boolean refusedUnprocessed(IOException e) {
    return "stream was reset: REFUSED_STREAM".equals(e.getMessage());
  }

  /**
   * The app's authenticator, keeping the request it makes of a refused one: OkHttp sends it on the
   * connection that carried the refusal, which a slow authenticator (a token fetched over a mobile
   * network) may have left idle past the limit, and {@link #gate} then sends it on another. OkHttp's
   * history of the call starts again there, so a refusal of that request is shown with the refusal
   * before it as its prior response, as OkHttp would have shown it: an authenticator that gives up
   * on a second refusal still does.
   */
  private static Authenticator followUpKept(Authenticator app) {
    if (app == Authenticator.NONE) return app;
    return (route, response) -> {
      FollowUp followUp = response.request().tag(FollowUp.class);
      Response refusal = response;
      Response before = followUp == null ? null : followUp.refusal;
      if (before != null && response.priorResponse() == null) {
        refusal = response.newBuilder().priorResponse(before).build();
      }
      Request next;
      try {
        next = app.authenticate(route, refusal);
      } catch (Throwable e) {
        // OkHttp leaves the refusal open when its authenticator throws: its exchange would count as
        // in progress for ever, and on HTTP/2 keep a connection that rests past the limit in use.
        response.close();
        throw e;
      }
      if (next != null && followUp != null && next.tag(FollowUp.class) == followUp) {
        followUp.request = next;
        followUp.refusal = withoutBody(refusal);
      }
      return next;
    };
  }

  /**
   * {@code response} as a prior response is: without its body. Built afresh, as OkHttp 4 wants a
   * null body there and OkHttp 5 refuses a null one.
   */
  private static Response withoutBody(Response response) {
    return new Response.Builder()
        .request(response.request())
        .protocol(response.protocol())
        .code(response.code())
        .message(response.message())
        .handshake(response.handshake())
        .headers(response.headers())
        .priorResponse(response.priorResponse())
        .sentRequestAtMillis(response.sentRequestAtMillis())
        .receivedResponseAtMillis(response.receivedResponseAtMillis())
        .build();
  }

  /** The request an authenticator made in answer to a refusal of the gated request, if any. */
  private static final class FollowUp {
    volatile @Nullable Request request;
    /** The refusal it answers, without its body. */
    volatile @Nullable Response refusal;
  }

  /**
   * Lets OkHttp follow up an answer that says the server did not act on the request: a 401 or 407
   * that an authenticator answers, a 408 (the server gave up waiting for the request: HAProxy writes
   * one on a kept-alive connection it closes) and a 421 (the wrong server for it).
   */
  private static Response reopenAfterRefusal(Interceptor.Chain chain) throws IOException {
    Response response = chain.proceed(chain.request());
    OnceWritten body = chain.request().tag(OnceWritten.class);
    if (body != null) {
      switch (response.code()) {
        case 401:
        case 407:
        case 408:
        case 421:
          body.written = false;
          break;
        default:
          break;
      }
    }
    return response;
  }

  /** The body as it is, but one-shot from the moment it is first written. */
  private static final class OnceWritten extends ForwardingBody {
    volatile boolean written;

    OnceWritten(RequestBody delegate) {
      super(delegate);
    }

    @Override public boolean isOneShot() {
      return written;
    }

    @Override public void writeTo(BufferedSink sink) throws IOException {
      written = true;
      delegate.writeTo(sink);
    }
  }
}
