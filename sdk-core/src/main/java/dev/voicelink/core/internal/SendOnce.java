package dev.voicelink.core.internal;

import java.io.IOException;
import okhttp3.Interceptor;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

/**
 * Clients for requests the server must see exactly as often as the SDK sends them, and only at the
 * address it sends them to: polls keep their interval, a refresh is not replayed with a refresh
 * token already used, an upload the server may have processed is not sent again. Left to itself,
 * OkHttp sends a request again after a dropped connection, at once after a 503 with {@code
 * Retry-After: 0}, and on to wherever a 3xx points, with its body and every header but {@code
 * Authorization}: the device code, a refresh token or client secret, the user's records, the web
 * API's signature.
 *
 * <p>A body can still be written again for a refusal the SDK or the app answers: a checksum signed
 * again, a 401 answered by the app's authenticator.
 */
public final class SendOnce {
  private SendOnce() {
  }

  /** {@code client} without silent retries, without redirects, handing a 503 to the caller. */
  public static OkHttpClient client(OkHttpClient client) {
    return client.newBuilder()
        .retryOnConnectionFailure(false)
        .followRedirects(false)
        .addInterceptor(SendOnce::gate)
        .addNetworkInterceptor(SendOnce::markUnavailable)
        .build();
  }

  /** The innermost application interceptor: what it passes on is what OkHttp would repeat. */
  private static Response gate(Interceptor.Chain chain) throws IOException {
    Request request = chain.request();
    RequestBody body = request.body();
    if (body == null || body.isOneShot()) return chain.proceed(request);
    Gate gate = new Gate(body);
    return chain.proceed(request.newBuilder().method(request.method(), gate).tag(Gate.class, gate)
        .build());
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
  private static final class Gate extends ForwardingBody {
    volatile boolean unavailable;

    Gate(RequestBody delegate) {
      super(delegate);
    }

    @Override public boolean isOneShot() {
      return unavailable;
    }
  }
}
