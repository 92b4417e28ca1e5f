package dev.voicelink.core.internal;

import java.io.IOException;
import org.jspecify.annotations.Nullable;
import okhttp3.Interceptor;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okio.BufferedSink;

/**
 * Uploads that reach the server exactly as often as the SDK sends them, and only at the address it
 * sends them to. Left to itself, OkHttp sends a request again after a dropped connection, at once
 * after a 503 with {@code Retry-After: 0}, and on to wherever a 3xx points, with its body and every
 * header but {@code Authorization}. An upload dropped may have been processed, and a redirect would
 * carry the user's records and the request's signature to another host.
 *
 * <p>An upload body can still be written again for a refusal the SDK or the app answers: a checksum
 * signed again, a 401 answered by the app's authenticator.
 */
public final class UploadOnce {
  private UploadOnce() {
  }

  /** {@code client} for uploads: no silent retry, no redirect followed, a 503 handed to the caller. */
  public static OkHttpClient client(OkHttpClient client) {
    return ClientCore.noSilentRetry(client).newBuilder()
        .followRedirects(false)
        .addNetworkInterceptor(UploadOnce::markUnavailable)
        .build();
  }

  /** {@code request} posting {@code body}, which a {@link #client} never sends again on its own. */
  public static Request.Builder post(Request.Builder request, RequestBody body) {
    Gate gate = new Gate(body);
    return request.post(gate).tag(Gate.class, gate);
  }

  private static Response markUnavailable(Interceptor.Chain chain) throws IOException {
    Response response = chain.proceed(chain.request());
    Gate gate = chain.request().tag(Gate.class);
    if (gate != null && response.code() == 503) gate.unavailable = true;
    return response;
  }

  /**
   * The body as it is, but one-shot once the server answered 503: OkHttp repeats a request after
   * {@code Retry-After: 0} only when its body can be written again.
   */
  private static final class Gate extends RequestBody {
    private final RequestBody delegate;
    volatile boolean unavailable;

    Gate(RequestBody delegate) {
      this.delegate = delegate;
    }

    @Override public @Nullable MediaType contentType() {
      return delegate.contentType();
    }

    @Override public long contentLength() throws IOException {
      return delegate.contentLength();
    }

    @Override public boolean isOneShot() {
      return unavailable || delegate.isOneShot();
    }

    @Override public void writeTo(BufferedSink sink) throws IOException {
      delegate.writeTo(sink);
    }
  }
}
