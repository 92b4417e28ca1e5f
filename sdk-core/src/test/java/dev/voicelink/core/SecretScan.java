package dev.voicelink.core;

import com.squareup.moshi.JsonReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import okhttp3.Request;
import okhttp3.RequestBody;
import okio.Buffer;
import org.jspecify.annotations.Nullable;

/**
 * Finds secrets in a fuzzed JSON text and asserts that none of them shows in what the SDK produced from
 * it (exception messages along the cause chain, toString of values).
 */
public final class SecretScan {
  private SecretScan() {
  }

  /**
   * The string values of {@code secretFields} at the top level of {@code json} that are worth looking
   * for: at least 12 characters, no white space, with a letter and a digit (so they cannot be a piece of
   * the SDK's own message templates), and found in the text only as those values, not also elsewhere
   * (a server that echoes a token in its error message is not the SDK leaking it).
   */
  public static List<String> secretsIn(String json, String... secretFields) {
    List<String> out = new ArrayList<>();
    Object value;
    try {
      JsonReader reader = JsonReader.of(new Buffer().writeUtf8(json));
      value = reader.readJsonValue();
    } catch (Exception e) {
      return out;
    }
    if (!(value instanceof Map)) return out;
    Map<?, ?> map = (Map<?, ?>) value;
    for (String field : secretFields) {
      Object v = map.get(field);
      if (v instanceof String && worthScanning((String) v) && !echoedElsewhere(map, field, (String) v)) {
        out.add((String) v);
      }
    }
    return out;
  }

  private static boolean worthScanning(String s) {
    if (s.length() < 12) return false;
    boolean letter = false;
    boolean digit = false;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isWhitespace(c)) return false;
      if (Character.isLetter(c)) letter = true;
      if (Character.isDigit(c)) digit = true;
    }
    return letter && digit;
  }

  private static boolean echoedElsewhere(Map<?, ?> map, String field, String secret) {
    for (Map.Entry<?, ?> e : map.entrySet()) {
      if (String.valueOf(e.getKey()).contains(secret)) return true;
      if (e.getKey().equals(field)) continue;
      if (String.valueOf(e.getValue()).contains(secret)) return true;
    }
    return false;
  }

  /**
   * Those of the SDK's {@code own} secrets to look for once {@code sent} was answered with {@code answer}:
   * every one the request carried, as the SDK redacts its echo from what the server says; and every
   * other one the answer does not contain. A server may know a secret that its request did not carry
   * (the account key, a token it issued earlier), and a text of its own that names one is told as the
   * server wrote it.
   */
  public static List<String> ownSecrets(@Nullable Request sent, String answer, String... own) {
    String carried = sent == null ? "" : carried(sent);
    List<String> out = new ArrayList<>();
    for (String secret : own) {
      if (carried.contains(secret) || !answer.contains(secret)) out.add(secret);
    }
    return out;
  }

  /** The headers and, unless it streams, the body of {@code request}, as text. */
  private static String carried(Request request) {
    StringBuilder out = new StringBuilder(request.url().toString()).append('\n');
    // Not Headers.toString(), which leaves the values of Authorization and its kind out.
    for (int i = 0; i < request.headers().size(); i++) {
      out.append(request.headers().name(i)).append(": ").append(request.headers().value(i)).append('\n');
    }
    RequestBody body = request.body();
    if (body == null || body.isOneShot()) return out.toString();
    try {
      Buffer buffer = new Buffer();
      body.writeTo(buffer);
      return out.append(buffer.readUtf8()).toString();
    } catch (IOException e) {
      throw new AssertionError("the request's body cannot be read again", e);
    }
  }

  /** Throws AssertionError if any of {@code secrets} appears in {@code t}'s messages or causes. */
  public static void assertNotIn(Throwable t, Collection<String> secrets) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      assertNotIn(String.valueOf(c.getMessage()), secrets, c.getClass().getName() + " message");
      assertNotIn(c.toString(), secrets, c.getClass().getName() + " toString");
    }
  }

  /** Throws AssertionError if any of {@code secrets} appears in {@code text}. */
  public static void assertNotIn(String text, Collection<String> secrets, String where) {
    for (String secret : secrets) {
      if (secret != null && !secret.isEmpty() && text.contains(secret)) {
        throw new AssertionError("a secret shows in the " + where + ": " + text);
      }
    }
  }
}
