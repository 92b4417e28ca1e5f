package dev.voicelink.benchmarks;

import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.entity.Dimension;
import dev.voicelink.entity.EntityWebApi;
import dev.voicelink.entity.PersParam;
import dev.voicelink.entity.ResourceDefinition;
import dev.voicelink.testing.DefaultConsole;
import java.io.BufferedWriter;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import okhttp3.FormBody;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.BufferedSink;
import okio.ByteString;
import okio.Okio;

/**
 * The inputs every benchmark and harness shares, so that the SDK and its baselines always see the same
 * bytes: contact-like records (a quarter with non-ASCII names, as real address books have), the
 * reference server's default account, and a transport stub that consumes request bodies fully.
 */
public final class Workloads {
  public static final String AUTH_ID = "0123456789abcdef0123456789abcdef";
  static final MediaType JSON = MediaType.get("application/json; charset=utf-8");
  private static final String UPLOAD_ENVELOPE = "{\"code\":\"00000\",\"data\":{\"sid\":\"psn0001\","
      + "\"csid\":\"c0001\"},\"desc\":\"success\",\"sid\":\"s0001\"}";

  private Workloads() {
  }

  /**
   * Turns the SDK's logging off, as a release app does: one INFO line per upload would otherwise be
   * measured as encoding time.
   */
  public static void quietSdkLog() {
    dev.voicelink.core.VoiceLinkLog.setSink(new dev.voicelink.core.VoiceLinkLog.Sink() {
      @Override public boolean isLoggable(dev.voicelink.core.VoiceLinkLog.Level level, String tag) {
        return false;
      }

      @Override public void log(dev.voicelink.core.VoiceLinkLog.Level level, String tag, String message,
          Throwable error) {
      }
    });
  }

  /** The reference server's user-level contacts resource: main field name, secondary field alias. */
  public static ResourceDefinition contacts() {
    return ResourceDefinition.builder()
        .name(DefaultConsole.CONTACTS)
        .mainField("name")
        .secondaryFields("alias")
        .dimension(Dimension.USER)
        .build();
  }

  public static PersParam owner() {
    return PersParam.user(AUTH_ID);
  }

  /** Record {@code i}: the same for every run, so sizes and bytes are reproducible. */
  public static Map<String, String> record(int i) {
    Map<String, String> record = new LinkedHashMap<>();
    String number = Integer.toString(100000 + i);
    if (i % 4 == 0) {
      record.put("name", "\u5f20\u4f1f " + number);
      record.put("alias", "\u8001\u5f20" + (i % 100));
    } else {
      record.put("name", "Contact " + number + " Smith-Johnson");
      record.put("alias", i % 3 == 0 ? "" : "CJ " + (i % 1000));
    }
    record.put("phone", "+86 138 " + number);
    return record;
  }

  /** One record as the resource text's line (field order kept, as the SDK writes it). */
  public static String line(Map<String, String> record) {
    StringBuilder json = new StringBuilder(96).append('{');
    boolean first = true;
    for (Map.Entry<String, String> field : record.entrySet()) {
      if (!first) json.append(',');
      first = false;
      json.append('"').append(field.getKey()).append("\":\"").append(field.getValue()).append('"');
    }
    return json.append('}').toString();
  }

  /** As many records as make a resource text of at least {@code textBytes} bytes. */
  public static List<Map<String, String>> records(long textBytes) {
    List<Map<String, String>> records = new ArrayList<>();
    long size = 0;
    for (int i = 0; size < textBytes; i++) {
      Map<String, String> record = record(i);
      size += (i > 0 ? 1 : 0) + line(record).getBytes(StandardCharsets.UTF_8).length;
      records.add(record);
    }
    return records;
  }

  /** The resource text of {@code records}: JSON lines joined by a line feed, UTF-8. */
  public static byte[] text(List<Map<String, String>> records) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < records.size(); i++) {
      if (i > 0) text.append('\n');
      text.append(line(records.get(i)));
    }
    return text.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** Writes a resource file of at least {@code textBytes} bytes, streaming, and returns its size. */
  public static long writeResourceFile(File file, long textBytes) throws IOException {
    long size = 0;
    try (Writer out = new BufferedWriter(new OutputStreamWriter(new FileOutputStream(file),
        StandardCharsets.UTF_8))) {
      for (int i = 0; size < textBytes; i++) {
        String line = line(record(i));
        if (i > 0) out.write('\n');
        out.write(line);
        size += (i > 0 ? 1 : 0) + line.getBytes(StandardCharsets.UTF_8).length;
      }
    }
    return size;
  }

  /**
   * What a developer writes today without the SDK: build the text as one String, take its bytes,
   * Base64 them to a String (okio, as on Android 21 there is no java.util.Base64) and put that in a
   * FormBody.
   */
  public static RequestBody byHandForm(String appid, String resName, String persParam,
      List<Map<String, String>> records) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < records.size(); i++) {
      if (i > 0) text.append('\n');
      text.append(line(records.get(i)));
    }
    return byHandForm(appid, resName, persParam, text.toString());
  }

  public static RequestBody byHandForm(String appid, String resName, String persParam, String text) {
    String data = ByteString.of(text.getBytes(StandardCharsets.UTF_8)).base64();
    return new FormBody.Builder(StandardCharsets.UTF_8)
        .add("appid", appid)
        .add("res_name", resName)
        .add("pers_param", persParam)
        .add("data", data)
        .build();
  }

  /**
   * An HTTP client whose transport writes each request body, in full, into a sink that discards it, and
   * answers every call with a successful upload envelope. Both the SDK and the by-hand baseline send
   * through it, so the comparison is of the encoding, not of the network.
   */
  public static OkHttpClient discardingTransport() {
    return new OkHttpClient.Builder()
        .addInterceptor(chain -> {
          Request request = chain.request();
          RequestBody body = request.body();
          if (body != null) {
            BufferedSink sink = Okio.buffer(Okio.blackhole());
            body.writeTo(sink);
            sink.flush();
          }
          return new Response.Builder()
              .request(request)
              .protocol(Protocol.HTTP_1_1)
              .code(200)
              .message("OK")
              .body(ResponseBody.create(UPLOAD_ENVELOPE, JSON))
              .build();
        })
        .build();
  }

  /** The SDK's web API client for the reference server's default account at {@code baseUrl}. */
  public static EntityWebApi webApi(String baseUrl, OkHttpClient http, long maxResourceBytes) {
    // The benchmarks' process keeps it for good, as an app keeps its one client.
    VoiceLinkClient client = VoiceLinkClient.builder().baseUrl(baseUrl).httpClient(http).build();
    return EntityWebApi.builder(client)
        .namespace(DefaultConsole.NAMESPACE)
        .accountKey(DefaultConsole.ACCOUNT_KEY)
        .maxResourceBytes(maxResourceBytes)
        .build();
  }
}
