package dev.voicelink.entity;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;

/**
 * A web API stand-in for uploads too large to keep: it counts the body without keeping it and
 * accepts one upload as sid {@value #SID}. Shared by the large-upload tests of the SDK and the CLI.
 */
public final class BigUploadServer {
  public static final String SID = "psnbig";

  private BigUploadServer() {
  }

  /** A started server; the caller shuts it down. */
  public static MockWebServer start() throws IOException {
    MockWebServer server = new MockWebServer();
    server.setBodyLimit(0); // count the body, keep none of it
    server.enqueue(new MockResponse().setBody("{\"code\":\"00000\",\"data\":{\"sid\":\"" + SID + "\","
        + "\"csid\":\"c\"},\"desc\":\"success\",\"sid\":\"w\"}"));
    server.start();
    return server;
  }

  /**
   * The heap of a child JVM that printed {@code "<sid> maxHeap=<bytes>"} last, after checking that it
   * printed this server's sid.
   */
  public static long maxHeapPrinted(String printed) {
    assertThat(printed).contains(SID + " maxHeap=");
    return Long.parseLong(printed.trim().replaceAll("(?s).*maxHeap=", ""));
  }

  /**
   * The upload, checked to be whole: a form body longer than the Base64 of {@code textBytes} of
   * resource text, as long as its {@code Content-Length} said.
   */
  public static RecordedRequest takeWholeUpload(MockWebServer server, long textBytes)
      throws InterruptedException {
    RecordedRequest upload = server.takeRequest();
    long base64 = (textBytes + 2) / 3 * 4;
    assertThat(upload.getBodySize()).isGreaterThan(base64)
        .isEqualTo(Long.parseLong(upload.getHeader("Content-Length")));
    return upload;
  }
}
