package dev.voicelink.benchmarks;

import dev.voicelink.entity.ChecksumSigner;
import dev.voicelink.testing.DefaultConsole;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import okhttp3.FormBody;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
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
 * OkHttpClient and with the SDK's interceptors in front (checksum signer; checksum signer and token manager). Sampled latency; the figure is the median.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(1)
public class RequestOverheadBenchmark {
  private LoopbackServer server;
  private OkHttpClient bare;
  private OkHttpClient signed;
  private OkHttpClient signedWithToken;
  private String url;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    Workloads.quietSdkLog();
    server = new LoopbackServer();
    url = server.url("/v2/voicelink/entity/check-resource");
    OkHttpClient[] clients = clients();
    bare = clients[0];
    signed = clients[1];
    signedWithToken = clients[2];
  }

  /** The three clients compared: bare, with the checksum signer, with the signer and the token's. */
  public static OkHttpClient[] clients() throws IOException {
    OkHttpClient bare = new OkHttpClient();
    OkHttpClient signed = bare.newBuilder()
        .addInterceptor(ChecksumSigner.builder()
            .namespace(DefaultConsole.NAMESPACE)
            .accountKey(DefaultConsole.ACCOUNT_KEY)
            .build())
        .build();
    OkHttpClient signedWithToken = signed.newBuilder()
        .addInterceptor(TokenBenchmark.manager().interceptor())
        .build();
    return new OkHttpClient[] {bare, signed, signedWithToken};
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
  public int checksumSigned() throws IOException {
    return call(signed, url);
  }

  /** Both of the SDK's interceptors: the checksum signer and the token manager's. */
  @Benchmark
  public int sdkInterceptors() throws IOException {
    return call(signedWithToken, url);
  }

  /** One small form POST to {@code url}: what every variant and the paired harness send. */
  public static int call(OkHttpClient client, String url) throws IOException {
    Request request = new Request.Builder()
        .url(url)
        .post(new FormBody.Builder().add("sid", "psn0000000001").build())
        .build();
    try (Response response = client.newCall(request).execute()) {
      return response.body().bytes().length;
    }
  }
}
