package dev.voicelink.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voicelink.benchmarks.harness.HeapChildAccess;
import dev.voicelink.testing.ReferenceServer;
import java.io.File;
import java.nio.file.Path;
import okhttp3.OkHttpClient;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import okio.Buffer;
import okio.ByteString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every benchmark method and harness step runs once, on small inputs, so a broken one fails the build. */
class BenchmarksSmokeTest {
  @Test void encodingVariantsAllProduceTheSameResource() throws Exception {
    EncodingBenchmark benchmark = new EncodingBenchmark();
    benchmark.size = 10_000;
    benchmark.setUp();
    assertThat(benchmark.textBytes()).isGreaterThanOrEqualTo(10_000);

    String floor = benchmark.floorBase64();
    assertThat(ByteString.decodeBase64(floor).size()).isEqualTo(benchmark.textBytes());
    assertThat(benchmark.byHand()).isEqualTo(200);
    assertThat(benchmark.sdkUpload().sid()).isEqualTo("psn0001");
    benchmark.sdkBase64();
    benchmark.byHandEncoding();
    benchmark.sdkEncoding();

    // the SDK's upload body and the by-hand FormBody are the same bytes: only the way differs
    Buffer sdkBody = new Buffer();
    okhttp3.RequestBody body = dev.voicelink.entity.UploadBodies.of(
        Workloads.webApi("http://127.0.0.1:9/", Workloads.discardingTransport(), 1 << 20),
        dev.voicelink.entity.UploadRequest.builder()
            .appid(dev.voicelink.testing.DefaultConsole.APPID)
            .definition(Workloads.contacts())
            .persParam(Workloads.owner())
            .records(dev.voicelink.entity.RecordSource.of(Workloads.records(10_000)))
            .build());
    body.writeTo(sdkBody);
    assertThat(sdkBody.size()).isEqualTo(body.contentLength());
    Buffer handBody = new Buffer();
    Workloads.byHandForm(dev.voicelink.testing.DefaultConsole.APPID,
        dev.voicelink.testing.DefaultConsole.CONTACTS, Workloads.owner().toJson(),
        Workloads.records(10_000)).writeTo(handBody);
    assertThat(sdkBody.readUtf8()).isEqualTo(handBody.readUtf8());

    // the SDK's encoder writes exactly the floor's Base64 for the same records
    Buffer sdk = new Buffer();
    dev.voicelink.entity.ResourceEncoder.writeBase64(Workloads.contacts(),
        dev.voicelink.entity.RecordSource.of(Workloads.records(10_000)), 1 << 20,
        sdk.outputStream());
    assertThat(sdk.readUtf8()).isEqualTo(floor);
  }

  @Test void requestOverheadVariantsReachTheLoopbackServer() throws Exception {
    RequestOverheadBenchmark benchmark = new RequestOverheadBenchmark();
    benchmark.setUp();
    try {
      assertThat(benchmark.bare()).isEqualTo(LoopbackServer.BODY.length());
      assertThat(benchmark.fixedHeaders()).isEqualTo(LoopbackServer.BODY.length());
      assertThat(benchmark.checksumSigned()).isEqualTo(LoopbackServer.BODY.length());
      assertThat(benchmark.sdkInterceptors()).isEqualTo(LoopbackServer.BODY.length());
      assertThat(benchmark.signerCpu().header("X-CheckSum")).hasSize(32);
      assertThat(benchmark.tokenInterceptorCpu().header("Authorization"))
          .isEqualTo("a1b2c3d4e5f60718293a4b5c6d7e8f90");
    } finally {
      benchmark.tearDown();
    }
  }

  /** The fixed-headers variant must cost the wire what the signer's headers cost, or it explains nothing. */
  @Test void fixedHeadersVariantSendsTheSignersHeaderBytes() throws Exception {
    try (MockWebServer server = new MockWebServer()) {
      OkHttpClient[] clients = RequestOverheadBenchmark.clients();
      for (int i = 0; i < clients.length; i++) server.enqueue(new MockResponse().setBody(LoopbackServer.BODY));
      for (OkHttpClient client : clients) RequestOverheadBenchmark.call(client, server.url("/c").toString());
      RecordedRequest bare = server.takeRequest();
      RecordedRequest fixed = server.takeRequest();
      RecordedRequest signed = server.takeRequest();
      assertThat(bare.getHeader("X-CheckSum")).isNull();
      for (String name : new String[] {"X-NameSpace", "X-Nonce", "X-CurTime", "X-CheckSum"}) {
        assertThat(fixed.getHeader(name)).as(name).hasSameSizeAs(signed.getHeader(name));
      }
      assertThat(fixed.getHeaders().size()).isEqualTo(signed.getHeaders().size());
      assertThat(fixed.getBody().readUtf8()).isEqualTo(signed.getBody().readUtf8());
    }
  }

  @Test void tokenHotPathServesTheStoredToken() throws Exception {
    TokenBenchmark benchmark = new TokenBenchmark();
    benchmark.setUp();
    assertThat(benchmark.accessToken1()).isEqualTo("a1b2c3d4e5f60718293a4b5c6d7e8f90");
    assertThat(benchmark.accessToken8()).isEqualTo("a1b2c3d4e5f60718293a4b5c6d7e8f90");
    assertThat(benchmark.volatileRead1()).isEqualTo("floor-token");
  }

  @Test void heapChildUploadsBothWaysToTheReferenceServer(@TempDir Path dir) throws Exception {
    File file = dir.resolve("r.jsonl").toFile();
    Workloads.writeResourceFile(file, 20_000);
    try (ReferenceServer server = ReferenceServer.builder().build().start()) {
      assertThat(HeapChildAccess.upload("sdk", server.baseUrl(), file)).startsWith("psn");
      assertThat(HeapChildAccess.upload("by-hand", server.baseUrl(), file)).contains("\"00000\"");
      assertThat(server.journal().count("/entity/upload-resource")).isEqualTo(2);
      // same form, byte for byte: the comparison is of how it is built, not of what is sent
      assertThat(server.journal().get(0).body()).isEqualTo(server.journal().get(1).body());
    }
  }
}
