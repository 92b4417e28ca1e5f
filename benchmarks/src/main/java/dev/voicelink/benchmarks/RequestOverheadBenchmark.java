package dev.voicelink.benchmarks;

import dev.voicelink.entity.ChecksumSigner;
import dev.voicelink.testing.DefaultConsole;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import okhttp3.Call;
import okhttp3.Connection;
import okhttp3.FormBody;
import okhttp3.Interceptor;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Protocol;
import okhttp3.Response;
import okhttp3.ResponseBody;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Per-request overhead: the same small form POST over a kept-alive loopback connection, with a bare
 * OkHttpClient, with the four signing headers at fixed values (the wire cost the spec requires of any
 * client), and with the SDK's interceptors in front (checksum signer; checksum signer and token
 * manager). Sampled latency; the figure is the median. The {@code *Cpu} benchmarks run one interceptor
 * on a chain that answers at once, for the CPU it costs without the noise of a round trip.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(1)
public class RequestOverheadBenchmark {
  /** The variants, in the order of {@link #clients()}. */
  public static final String[] VARIANTS = {"bare", "fixedHeaders", "checksumSigned", "sdkInterceptors"};
  /** 32 hex digits, the length of the signer's nonce and checksum. */
  static final String FIXED_HEX = "0123456789abcdef0123456789abcdef";
  private static final MediaType JSON = MediaType.get("application/json; charset=utf-8");

  private LoopbackServer server;
  private OkHttpClient bare;
  private OkHttpClient fixedHeaders;
  private OkHttpClient signed;
  private OkHttpClient signedWithToken;
  private String url;
  private Interceptor signer;
  private Interceptor tokenInterceptor;
  private AnsweringChain chain;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    Workloads.quietSdkLog();
    server = new LoopbackServer();
    url = server.url("/v2/voicelink/entity/check-resource");
    OkHttpClient[] clients = clients();
    bare = clients[0];
    fixedHeaders = clients[1];
    signed = clients[2];
    signedWithToken = clients[3];
    signer = signer();
    tokenInterceptor = TokenBenchmark.manager().interceptor();
    chain = new AnsweringChain(request(url));
  }

  /** The clients compared, one per {@link #VARIANTS} entry, sharing one connection pool. */
  public static OkHttpClient[] clients() throws IOException {
    OkHttpClient bare = new OkHttpClient();
    OkHttpClient fixedHeaders = bare.newBuilder()
        .addInterceptor(chain -> chain.proceed(chain.request().newBuilder()
            .header("X-NameSpace", DefaultConsole.NAMESPACE)
            .header("X-Nonce", FIXED_HEX)
            .header("X-CurTime", "1763712000")
            .header("X-CheckSum", FIXED_HEX)
            .build()))
        .build();
    OkHttpClient signed = bare.newBuilder().addInterceptor(signer()).build();
    OkHttpClient signedWithToken = signed.newBuilder()
        .addInterceptor(TokenBenchmark.manager().interceptor())
        .build();
    return new OkHttpClient[] {bare, fixedHeaders, signed, signedWithToken};
  }

  private static ChecksumSigner signer() {
    return ChecksumSigner.builder()
        .namespace(DefaultConsole.NAMESPACE)
        .accountKey(DefaultConsole.ACCOUNT_KEY)
        .build();
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    server.close();
    bare.connectionPool().evictAll();
  }

  @Benchmark
  public int bare() throws IOException {
    return call(bare, url);
  }

  @Benchmark
  public int fixedHeaders() throws IOException {
    return call(fixedHeaders, url);
  }

  @Benchmark
  public int checksumSigned() throws IOException {
    return call(signed, url);
  }

  /** Both of the SDK's interceptors: the checksum signer and the token manager's. */
  @Benchmark
  public int sdkInterceptors() throws IOException {
    return call(signedWithToken, url);
  }

  /** The checksum signer alone on a chain that answers at once: its CPU per request. */
  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.NANOSECONDS)
  public Request signerCpu() throws IOException {
    signer.intercept(chain);
    return chain.sent;
  }

  /** The token manager's interceptor alone on a chain that answers at once. */
  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.NANOSECONDS)
  public Request tokenInterceptorCpu() throws IOException {
    tokenInterceptor.intercept(chain);
    return chain.sent;
  }

  /** One small form POST to {@code url}: what every variant and the paired harness send. */
  public static int call(OkHttpClient client, String url) throws IOException {
    try (Response response = client.newCall(request(url)).execute()) {
      return response.body().bytes().length;
    }
  }

  private static Request request(String url) {
    return new Request.Builder()
        .url(url)
        .post(new FormBody.Builder().add("sid", "psn0000000001").build())
        .build();
  }

  /**
   * A chain that keeps the request it is given and answers every call with the same response, built
   * once, so that only the interceptor's own work is measured.
   */
  static final class AnsweringChain implements Interceptor.Chain {
    private final Request request;
    private final Response answer;
    Request sent;

    AnsweringChain(Request request) {
      this.request = request;
      this.answer = new Response.Builder()
          .request(request)
          .protocol(Protocol.HTTP_1_1)
          .code(200)
          .message("OK")
          .body(ResponseBody.create(LoopbackServer.BODY, JSON))
          .build();
    }

    @Override public Request request() {
      return request;
    }

    @Override public Response proceed(Request request) {
      sent = request;
      return answer;
    }

    @Override public Connection connection() {
      return null;
    }

    @Override public Call call() {
      throw new UnsupportedOperationException("no call behind this chain");
    }

    @Override public int connectTimeoutMillis() {
      return 0;
    }

    @Override public Interceptor.Chain withConnectTimeout(int timeout, TimeUnit unit) {
      return this;
    }

    @Override public int readTimeoutMillis() {
      return 0;
    }

    @Override public Interceptor.Chain withReadTimeout(int timeout, TimeUnit unit) {
      return this;
    }

    @Override public int writeTimeoutMillis() {
      return 0;
    }

    @Override public Interceptor.Chain withWriteTimeout(int timeout, TimeUnit unit) {
      return this;
    }
  }
}
