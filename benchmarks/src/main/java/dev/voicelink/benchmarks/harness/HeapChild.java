package dev.voicelink.benchmarks.harness;

import dev.voicelink.benchmarks.Workloads;
import dev.voicelink.entity.ChecksumSigner;
import dev.voicelink.entity.RecordSource;
import dev.voicelink.entity.UploadReceipt;
import dev.voicelink.entity.UploadRequest;
import dev.voicelink.testing.DefaultConsole;
import java.io.BufferedReader;
import java.io.File;
import java.io.FileInputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

/**
 * One upload of a resource file to the reference server at {@code baseUrl}, in a JVM whose heap the
 * {@link HeapHarness} chose. The SDK's upload reports its progress, and fails unless the last report
 * is the whole body. Prints {@code OK <sid>} and exits 0 when the server accepted it; exits 3
 * on {@link OutOfMemoryError}, 2 on any other failure.
 *
 * <p>Usage: {@code HeapChild sdk|by-hand <baseUrl> <file>}
 */
public final class HeapChild {
  private HeapChild() {
  }

  public static void main(String[] args) {
    try {
      String sid = upload(args[0], args[1], new File(args[2]));
      System.out.println("OK " + sid);
      System.exit(0);
    } catch (OutOfMemoryError e) {
      System.out.println("OOM " + e.getMessage());
      System.exit(3);
    } catch (Throwable e) {
      System.out.println("FAILED " + e);
      System.exit(2);
    }
  }

  static String upload(String mode, String baseUrl, File file) throws Exception {
    OkHttpClient http = new OkHttpClient();
    try {
      if (mode.equals("sdk")) {
        // Progress on, as speaker-cli sync draws its bar: counting the body must not buffer it.
        final long[] progress = {0, -1};
        UploadReceipt receipt = Workloads.webApi(baseUrl, http, 64L * 1024 * 1024)
            .uploadResource(UploadRequest.builder()
                .appid(DefaultConsole.APPID)
                .definition(Workloads.contacts())
                .persParam(Workloads.owner())
                .records(RecordSource.fromFile(file))
                .progressListener(Runnable::run, (written, total) -> {
                  progress[0] = written;
                  progress[1] = total;
                })
                .build())
            .execute();
        if (progress[0] != progress[1]) {
          throw new IllegalStateException("progress stopped at " + progress[0] + " of " + progress[1]);
        }
        return receipt.sid();
      }
      if (mode.equals("by-hand")) {
        return byHand(baseUrl, http, file);
      }
      throw new IllegalArgumentException("mode must be sdk or by-hand; was " + mode);
    } finally {
      http.dispatcher().executorService().shutdown();
      http.connectionPool().evictAll();
    }
  }

  /** The records read into one String, then {@link Workloads#byHandForm}, signed the SDK's way. */
  private static String byHand(String baseUrl, OkHttpClient http, File file) throws Exception {
    StringBuilder text = new StringBuilder();
    try (BufferedReader in = new BufferedReader(new InputStreamReader(new FileInputStream(file),
        StandardCharsets.UTF_8))) {
      for (String line; (line = in.readLine()) != null; ) {
        if (text.length() > 0) text.append('\n');
        text.append(line);
      }
    }
    OkHttpClient signed = http.newBuilder()
        .addInterceptor(ChecksumSigner.builder()
            .namespace(DefaultConsole.NAMESPACE)
            .accountKey(DefaultConsole.ACCOUNT_KEY)
            .build())
        .build();
    Request request = new Request.Builder()
        .url(baseUrl.replaceAll("/$", "") + "/v2/voicelink/entity/upload-resource")
        .post(Workloads.byHandForm(DefaultConsole.APPID, DefaultConsole.CONTACTS,
            Workloads.owner().toJson(), text.toString()))
        .build();
    text = null; // what a careful developer does; the String is still referenced by nothing else
    try (Response response = signed.newCall(request).execute()) {
      String body = response.body().string();
      if (response.code() != 200 || !body.contains("\"00000\"")) {
        throw new IllegalStateException("upload refused: HTTP " + response.code() + " " + body);
      }
      return body;
    }
  }
}
