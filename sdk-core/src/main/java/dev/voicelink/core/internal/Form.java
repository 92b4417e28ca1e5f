package dev.voicelink.core.internal;

import java.io.UnsupportedEncodingException;
import java.net.URLEncoder;
import okhttp3.FormBody;

/**
 * An {@code application/x-www-form-urlencoded} body in the SDK's own encoding: UTF-8, a space as
 * {@code +}, only letters, digits and {@code * - . _} as they are (RFC 6749 appendix B, which the
 * platform's forms follow too). OkHttp's {@code FormBody.Builder.add} writes a space as {@code %20}
 * in 4.x and as {@code +} in 5.x; an app that brings OkHttp 5 must not change what the SDK sends.
 * Not thread-safe.
 */
public final class Form {
  private final FormBody.Builder body = new FormBody.Builder();

  public Form add(String name, String value) {
    body.addEncoded(encode(name), encode(value));
    return this;
  }

  public FormBody build() {
    return body.build();
  }

  /** {@code value} form-encoded, as a field of this body or an HTTP Basic credential is. */
  public static String encode(String value) {
    try {
      return URLEncoder.encode(value, "UTF-8");
    } catch (UnsupportedEncodingException e) {
      throw new AssertionError(e); // UTF-8 is always there
    }
  }
}
