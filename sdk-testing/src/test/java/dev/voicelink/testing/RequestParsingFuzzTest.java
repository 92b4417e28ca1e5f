package dev.voicelink.testing;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.net.Socket;
import java.util.Collections;
import java.util.Map;
import okhttp3.Headers;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.RecordedRequest;
import okio.Buffer;
import org.junit.jupiter.api.AfterAll;

/**
 * Fuzzes the reference server's request parsing: form bodies, X-* headers, Content-Type and its charset,
 * query strings and JSON bodies, for every endpoint. Requests go straight to the server's router (no
 * socket). Property: every request gets an answer that is not the router's "internal error" 500 (which
 * means a handler threw); a form is decoded or refused with a FormException naming the field.
 */
class RequestParsingFuzzTest {
  private static final String[] ROUTES = {Router.DEVICE_CODE, Router.TOKEN, Router.CLOUD_TOKEN,
      Router.UPLOAD_RESOURCE, Router.CHECK_RESOURCE, Router.UPLOAD_ENTITIES, Router.VERIFY,
      Router.VERIFY + "/login", Router.VERIFY + "/decide", Router.INTERACT, "/nowhere"};
  private static ReferenceServer server;
  private static Dispatcher dispatcher;

  private static synchronized Dispatcher dispatcher() throws IOException {
    if (dispatcher == null) {
      server = ReferenceServer.builder().build().start();
      dispatcher = server.dispatcher();
    }
    return dispatcher;
  }

  @AfterAll static synchronized void stop() throws IOException {
    if (server != null) server.close();
    server = null;
    dispatcher = null;
  }

  @FuzzTest
  void formBody(byte[] input) {
    String text = new String(input, UTF_8);
    try {
      Map<String, String> form = HttpCall.parseForm(text);
      assertThat(form.keySet()).doesNotContainNull();
    } catch (HttpCall.FormException e) {
      assertThat(e.getMessage()).isNotEmpty();
    }
  }

  /**
   * Input layout: byte 0 picks the route, byte 1 the method (bit 0: POST or GET) and whether the web
   * API headers carry a valid checksum (bit 1); then lines up to a blank line are headers
   * ({@code Name: value}; a line without a colon is the query string), the rest is the body.
   */
  @FuzzTest
  void request(byte[] input) throws Exception {
    String route = ROUTES[input.length == 0 ? 0 : (input[0] & 0xff) % ROUTES.length];
    int flags = input.length < 2 ? 0 : input[1] & 0xff;
    String rest = input.length <= 2 ? "" : new String(input, 2, input.length - 2, UTF_8);
    int blank = rest.indexOf("\n\n");
    String head = blank < 0 ? rest : rest.substring(0, blank);
    String body = blank < 0 ? "" : rest.substring(blank + 2);
    Headers.Builder headers = new Headers.Builder();
    String query = "";
    for (String line : head.split("\n", -1)) {
      int colon = line.indexOf(':');
      if (colon <= 0) {
        query = line;
        continue;
      }
      try {
        headers.addUnsafeNonAscii(line.substring(0, colon).trim(), line.substring(colon + 1).trim());
      } catch (IllegalArgumentException e) {
        // a name no HTTP parser would deliver (empty, control characters): not a server input
      }
    }
    if ((flags & 2) != 0) {
      String curTime = String.valueOf(System.currentTimeMillis() / 1000);
      headers.set("X-NameSpace", DefaultConsole.NAMESPACE).set("X-Nonce", "n0nce").set("X-CurTime", curTime)
          .set("X-CheckSum", Ids.md5Hex(DefaultConsole.ACCOUNT_KEY + "n0nce" + curTime));
    }
    String method = (flags & 1) != 0 ? "GET" : "POST";
    String target = route + (query.isEmpty() ? "" : "?" + query.replace(' ', '+'));
    Buffer bodyBuffer = new Buffer().writeUtf8(body);
    RecordedRequest request = new RecordedRequest(method + " " + target + " HTTP/1.1", headers.build(),
        Collections.<Integer>emptyList(), bodyBuffer.size(), bodyBuffer, 0, new Socket());
    MockResponse response = dispatcher().dispatch(request);
    assertThat(response.getStatus()).isNotEmpty();
    Buffer answer = response.getBody();
    String text = answer == null ? "" : answer.clone().readUtf8();
    assertThat(text).as("answer to %s %s", method, target)
        .doesNotContain("internal error of the reference server");
  }
}
