package dev.voicelink.android;

import com.squareup.moshi.JsonDataException;
import com.squareup.moshi.JsonEncodingException;
import com.squareup.moshi.JsonReader;
import dev.voicelink.core.internal.JsonValues;
import dev.voicelink.entity.PersParam;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.util.Map;
import okio.Buffer;
import okio.BufferedSource;
import okio.Okio;
import org.jspecify.annotations.Nullable;

/** Parses JSON object texts into maps, with errors that name the field and the JSON path. */
final class JsonObjects {
  private JsonObjects() {
  }

  /**
   * {@code bytes} as UTF-8 text, strictly: a lenient decode would send U+FFFD in place of every broken
   * byte (a GBK text, a buffer cut mid-character) without a word.
   *
   * @throws IllegalArgumentException with {@code notUtf8} as its message
   */
  static String utf8(byte[] bytes, String notUtf8) {
    checkUtf8(bytes, notUtf8);
    return new String(bytes, Charset.forName("UTF-8"));
  }

  /**
   * Checks that {@code bytes} are UTF-8, strictly, as {@link #utf8} does, a few KB at a time: no
   * text of their size is made.
   *
   * @throws IllegalArgumentException with {@code notUtf8} as its message
   */
  static void checkUtf8(byte[] bytes, String notUtf8) {
    CharsetDecoder decoder = Charset.forName("UTF-8").newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    CharBuffer out = CharBuffer.allocate(Math.min(bytes.length, 4096) + 1);
    while (true) {
      CoderResult result = decoder.decode(in, out, true);
      if (result.isError()) throw new IllegalArgumentException(notUtf8);
      out.clear();
      if (result.isUnderflow()) break;
    }
    while (true) {
      CoderResult result = decoder.flush(out);
      if (result.isError()) throw new IllegalArgumentException(notUtf8);
      out.clear();
      if (result.isUnderflow()) return;
    }
  }

  /**
   * Parses {@code text} as one JSON object. {@code name} says in errors what the text is, for example
   * {@code pers_param}.
   */
  static Map<String, Object> parseObject(String text, String name) {
    return parseObject(new Buffer().writeUtf8(text), name, null, null);
  }

  /**
   * Parses UTF-8 {@code bytes} as one JSON object, as {@link #parseObject(String, String)} parses
   * text, but as a stream: the top-level member {@code largeName}'s string value goes to {@code
   * large} as written, never into a String. Bytes that are not UTF-8 are refused first, with {@code
   * notUtf8}.
   */
  static Map<String, Object> parseObject(byte[] bytes, String name, String notUtf8, String largeName,
      JsonValues.LargeString large) {
    checkUtf8(bytes, notUtf8);
    return parseObject(Okio.buffer(Okio.source(new ByteArrayInputStream(bytes))), name, largeName,
        large);
  }

  private static Map<String, Object> parseObject(BufferedSource json, String name,
      @Nullable String largeName, JsonValues.@Nullable LargeString large) {
    return parseObject(json, name, name + " must be a JSON object text: ",
        name + " must be a JSON object text such as {\"uid\":\"\"}; was: ", largeName, large);
  }

  /**
   * Checks an activation {@code pers_param} text (protocol 4.10) as {@link PersParam#parseActivation}
   * does, which the interaction channel applies too. {@code name} (ending in {@code pers_param}) says
   * in errors where it came from.
   */
  static void checkPersParam(String text, String name) {
    parseObject(text, name); // a text that is no JSON object gets this module's messages
    try {
      PersParam.parseActivation(text);
    } catch (IllegalArgumentException e) {
      // Its messages start with "pers_param"; name says which one.
      throw new IllegalArgumentException(name + e.getMessage().substring("pers_param".length()), e);
    }
  }

  /**
   * Parses a config text in the platform's cfg style (see {@link LenientJsonText}) as one JSON object.
   * Errors start with {@code config}.
   */
  static Map<String, Object> parseConfig(String configText) {
    return parseObject(new Buffer().writeUtf8(LenientJsonText.strip(configText)), "config",
        "config is not valid JSON: ", "config must be a JSON object; was ", null, null);
  }

  /**
   * The one JSON-object parser. Errors: {@code notJson} + the parser's reason for a syntax error,
   * {@code notAnObject} + what was found for another JSON value, and text after the object named by
   * its JSON path.
   */
  private static Map<String, Object> parseObject(BufferedSource json, String name, String notJson,
      String notAnObject, @Nullable String largeName, JsonValues.@Nullable LargeString large) {
    Object value;
    try {
      JsonReader reader = JsonReader.of(json);
      value = JsonValues.read(reader, largeName, large);
      if (reader.peek() != JsonReader.Token.END_DOCUMENT) {
        throw new IllegalArgumentException(name + " must be one JSON object; found more after it at "
            + reader.getPath());
      }
    } catch (JsonEncodingException | JsonDataException e) {
      throw new IllegalArgumentException(notJson + JsonValues.reason(e), e);
    } catch (IOException e) {
      throw new IllegalArgumentException(notJson + JsonValues.reason(e), e);
    }
    if (!(value instanceof Map)) {
      throw new IllegalArgumentException(notAnObject + describe(value));
    }
    @SuppressWarnings("unchecked") // JsonValues.read gives String keys for objects
    Map<String, Object> map = (Map<String, Object>) value;
    return map;
  }

  /** A string member, or null when absent. Anything other than a string is an error naming {@code path}. */
  static @Nullable String optString(Map<String, Object> object, String key, String path) {
    Object value = object.get(key);
    if (value == null) return null;
    if (!(value instanceof String)) {
      throw new IllegalArgumentException(path + " must be a string; was " + describe(value));
    }
    return (String) value;
  }

  /** An object member, or null when absent. */
  static @Nullable Map<String, Object> optObject(Map<String, Object> object, String key,
      String path) {
    Object value = object.get(key);
    if (value == null) return null;
    if (!(value instanceof Map)) {
      throw new IllegalArgumentException(path + " must be an object; was " + describe(value));
    }
    @SuppressWarnings("unchecked") // JsonValues.read gives String keys for objects
    Map<String, Object> map = (Map<String, Object>) value;
    return map;
  }

  /** A short description of a parsed JSON value for error messages. */
  static String describe(@Nullable Object value) {
    if (value == null) return "null";
    if (value instanceof String) return "a string";
    if (value instanceof Number) return "a number";
    if (value instanceof Boolean) return "a boolean";
    if (value instanceof Map) return "an object";
    return "an array";
  }
}
