package dev.voicelink.entity;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.UnsupportedEncodingException;
import java.net.URLDecoder;
import java.util.LinkedHashMap;
import java.util.Map;
import okhttp3.mockwebserver.RecordedRequest;
import okio.ByteString;

/** Checks of what went over the wire to the web API. */
final class WireAssertions {
  private WireAssertions() {
  }

  /** The decoded fields of a form body, in order. */
  static Map<String, String> form(RecordedRequest request) throws UnsupportedEncodingException {
    assertThat(request.getHeader("Content-Type"))
        .isEqualTo("application/x-www-form-urlencoded; charset=utf-8");
    Map<String, String> fields = new LinkedHashMap<>();
    for (String pair : request.getBody().clone().readUtf8().split("&")) {
      int eq = pair.indexOf('=');
      fields.put(URLDecoder.decode(pair.substring(0, eq), "UTF-8"),
          URLDecoder.decode(pair.substring(eq + 1), "UTF-8"));
    }
    return fields;
  }

  /** Asserts the four signature headers and returns X-CurTime in seconds. */
  static long assertSigned(RecordedRequest request, String namespace, String accountKey) {
    String nonce = request.getHeader("X-Nonce");
    String curTime = request.getHeader("X-CurTime");
    assertThat(request.getHeader("X-NameSpace")).isEqualTo(namespace);
    assertThat(nonce).isNotEmpty().hasSizeLessThanOrEqualTo(128);
    assertThat(curTime).matches("\\d+");
    assertThat(request.getHeader("X-CheckSum"))
        .isEqualTo(ByteString.encodeUtf8(accountKey + nonce + curTime).md5().hex())
        .matches("[0-9a-f]{32}");
    return Long.parseLong(curTime);
  }

  static String decodeBase64(String base64) {
    ByteString bytes = ByteString.decodeBase64(base64);
    assertThat(bytes).as("valid Base64").isNotNull();
    return bytes.utf8();
  }
}
