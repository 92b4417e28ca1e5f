package dev.voicelink.benchmarks;

import dev.voicelink.core.ServerRefusalException;
import dev.voicelink.entity.EntityWebApi;
import dev.voicelink.entity.RecordSource;
import dev.voicelink.entity.ResourceDefinition;
import dev.voicelink.entity.ResourceEncoder;
import dev.voicelink.entity.UploadBodies;
import dev.voicelink.entity.UploadReceipt;
import dev.voicelink.entity.UploadRequest;
import dev.voicelink.testing.DefaultConsole;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import java.io.OutputStream;
import okio.BufferedSink;
import okio.ByteString;
import okio.Okio;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Resource encoding, records to the bytes of the upload's form body, on the same records:
 *
 * <ul>
 *   <li>{@code floorBase64}: okio's Base64 of the resource text's bytes, prepared in advance. Nothing
 *       can encode faster; the SDK's target is half of it.
 *   <li>{@code byHandEncoding}: one String, getBytes, Base64 to a String, a FormBody, written to a
 *       discarding sink.
 *   <li>{@code sdkEncoding}: the form body {@link EntityWebApi#uploadResource} sends, built from the
 *       records (checked and measured) and written to the same kind of sink.
 *   <li>{@code byHand} and {@code sdkUpload}: the same two, each sent as a whole HTTP call (the SDK's
 *       with its signing interceptor) through {@link Workloads#discardingTransport()}, which reads the
 *       body fully.
 *   <li>{@code sdkBase64}: {@link ResourceEncoder#writeBase64}, the plain Base64 alone.
 * </ul>
 *
 * Throughput is operations per second; MB/s is that times the resource text's size ({@link
 * #textBytes}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = "-Xmx2g")
public class EncodingBenchmark {
  /** Resource text size: 10 KB, 1 MB, 20 MB (decimal). */
  @Param({"10000", "1000000", "20000000"})
  public long size;

  private List<Map<String, String>> records;
  private ByteString textBytes;
  private ResourceDefinition definition;
  private EntityWebApi webApi;
  private OkHttpClient transport;
  private UploadRequest request;
  private String persParam;

  @Setup(Level.Trial)
  public void setUp() {
    Workloads.quietSdkLog();
    records = Workloads.records(size);
    textBytes = ByteString.of(Workloads.text(records));
    definition = Workloads.contacts();
    transport = Workloads.discardingTransport();
    webApi = Workloads.webApi("http://127.0.0.1:9/", transport, 64L * 1024 * 1024);
    request = UploadRequest.builder()
        .appid(DefaultConsole.APPID)
        .definition(definition)
        .persParam(Workloads.owner())
        .records(RecordSource.of(records))
        .build();
    persParam = Workloads.owner().toJson();
  }

  /** The resource text's size in bytes for this trial's records (per-byte figures divide by it). */
  public long textBytes() {
    return textBytes.size();
  }

  @Benchmark
  public String floorBase64() {
    return textBytes.base64();
  }

  @Benchmark
  public int byHand() throws IOException {
    Request post = new Request.Builder()
        .url("http://127.0.0.1:9/v2/voicelink/entity/upload-resource")
        .post(Workloads.byHandForm(DefaultConsole.APPID, DefaultConsole.CONTACTS, persParam, records))
        .build();
    try (Response response = transport.newCall(post).execute()) {
      return response.code();
    }
  }

  @Benchmark
  public BufferedSink byHandEncoding() throws IOException {
    RequestBody body =
        Workloads.byHandForm(DefaultConsole.APPID, DefaultConsole.CONTACTS, persParam, records);
    BufferedSink sink = Okio.buffer(Okio.blackhole());
    body.writeTo(sink);
    sink.flush();
    return sink;
  }

  @Benchmark
  public BufferedSink sdkEncoding() throws IOException {
    RequestBody body = UploadBodies.of(webApi, request);
    BufferedSink sink = Okio.buffer(Okio.blackhole());
    body.writeTo(sink);
    sink.flush();
    return sink;
  }

  @Benchmark
  public UploadReceipt sdkUpload() throws IOException, ServerRefusalException {
    return webApi.uploadResource(request).execute();
  }

  @Benchmark
  public OutputStream sdkBase64() throws IOException {
    OutputStream out = Okio.buffer(Okio.blackhole()).outputStream();
    ResourceEncoder.writeBase64(definition, request.records(), 64L * 1024 * 1024, out);
    return out;
  }
}
