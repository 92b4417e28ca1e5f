package dev.voicelink.entity;

import java.io.IOException;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;

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
}
