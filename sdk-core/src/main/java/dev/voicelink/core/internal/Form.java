package dev.voicelink.core.internal;

import java.io.UnsupportedEncodingException;
import java.net.URLEncoder;
import okhttp3.MediaType;
import okhttp3.RequestBody;
import okio.ByteString;

/**
 * An {@code application/x-www-form-urlencoded} body in the SDK's own encoding: UTF-8, a space as
 * {@code +}, only letters, digits and {@code * - . _} as they are (RFC 6749 appendix B, which the
 * platform's forms follow too). OkHttp's {@code FormBody.Builder.add} writes a space as {@code %20}
 * in 4.x and as {@code +} in 5.x; an app that brings OkHttp 5 must not change what the SDK sends.
 * The body is the bytes and the type {@code FormBody} would send for these fields, without its
 * classes and its re-encoding, which every shrunk app would carry. Not thread-safe.
 */
public final class Form {
  /** As {@code FormBody} names it: no charset parameter. */
  private static final MediaType TYPE = MediaType.get("application/x-www-form-urlencoded");

  private final StringBuilder text = new StringBuilder();

  public Form add(String name, String value) {
    if (text.length() > 0) text.append('&');
    text.append(encode(name)).append('=').append(encode(value));
    return this;
  }

  public RequestBody build() {
    return RequestBody.create(ByteString.encodeUtf8(text.toString()), TYPE);
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
