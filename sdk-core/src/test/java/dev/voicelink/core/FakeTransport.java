package dev.voicelink.core;

import okhttp3.Interceptor;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * An OkHttp client whose every call is answered in process with a scripted response, so fuzz tests run
 * the SDK's whole request-and-parse path at tens of thousands of calls per second without sockets.
 */
public final class FakeTransport {
  private volatile int status = 200;
  private volatile String contentType = "application/json; charset=utf-8";
  private volatile byte[] body = new byte[0];
  private volatile Request lastRequest;

  /** The next answers: {@code status}, {@code contentType} (null for none) and {@code body}. */
  public void answer(int status, String contentType, byte[] body) {
    this.status = status;
    this.contentType = contentType;
    this.body = body.clone();
  }

  public Request lastRequest() {
    return lastRequest;
  }

  public OkHttpClient client() {
    return new OkHttpClient.Builder().addInterceptor(new Interceptor() {
      @Override public Response intercept(Chain chain) {
        lastRequest = chain.request();
        MediaType type = contentType == null ? null : MediaType.parse(contentType);
        return new Response.Builder()
            .request(chain.request())
            .protocol(Protocol.HTTP_1_1)
            .code(status)
            .message("scripted")
            .body(ResponseBody.create(body, type))
            .build();
      }
    }).build();
  }

  /** The HTTP statuses a fuzz input picks from with its first byte (index = byte % 8). */
  public static final int[] STATUSES = {200, 400, 401, 403, 404, 500, 502, 503};

  /** The status chosen by the first byte of a fuzz input. */
  public static int status(byte[] input) {
    return input.length == 0 ? 200 : STATUSES[(input[0] & 0xff) % STATUSES.length];
  }

  /** The body of a fuzz input: everything after the first byte. */
  public static byte[] body(byte[] input) {
    if (input.length <= 1) return new byte[0];
    byte[] out = new byte[input.length - 1];
    System.arraycopy(input, 1, out, 0, out.length);
    return out;
  }
}
