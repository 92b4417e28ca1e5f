package dev.voicelink.android;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Parses the params text of {@code CMD_WRITE}: comma-separated {@code key=value} pairs, such as
 * {@code data_type=text,pers_param={"group":"a,b=c"}}. A value that starts with <code>{</code> runs to
 * its matching <code>}</code>, honouring JSON strings, so commas and {@code =} inside it belong to it.
 */
final class WriteParams {
  private WriteParams() {
  }

  /** The pairs in their order. Throws IllegalArgumentException naming the offending key. */
  static Map<String, String> parse(String params) {
    Map<String, String> result = new LinkedHashMap<>();
    int i = 0;
    int n = params.length();
    while (i < n) {
      int keyStart = i;
      while (i < n && params.charAt(i) != '=' && params.charAt(i) != ',') i++;
      String key = params.substring(keyStart, i).trim();
      if (key.isEmpty()) {
        if (i < n && params.charAt(i) == ',') {
          i++; // tolerate an empty pair such as a trailing comma
          continue;
        }
        throw new IllegalArgumentException("CMD_WRITE params have a value without a key at index "
            + keyStart + ": " + params);
      }
      if (i >= n || params.charAt(i) != '=') {
        throw new IllegalArgumentException("CMD_WRITE param " + key + " has no value: expected "
            + key + "=<value>");
      }
      i++; // '='
      while (i < n && params.charAt(i) == ' ') i++;
      int valueStart = i;
      if (i < n && params.charAt(i) == '{') {
        i = endOfObject(params, i, key);
      } else {
        while (i < n && params.charAt(i) != ',') i++;
      }
      String value = params.substring(valueStart, i).trim();
      if (result.containsKey(key)) {
        throw new IllegalArgumentException("CMD_WRITE param " + key + " is given twice");
      }
      result.put(key, value);
      while (i < n && params.charAt(i) == ' ') i++;
      if (i < n) {
        if (params.charAt(i) != ',') {
          throw new IllegalArgumentException("CMD_WRITE param " + key
              + " must be followed by a comma; found '" + params.charAt(i) + "' at index " + i);
        }
        i++;
      }
    }
    return Collections.unmodifiableMap(result);
  }

  /** The index just after the <code>}</code> matching the <code>{</code> at {@code start}. */
  private static int endOfObject(String text, int start, String key) {
    int depth = 0;
    boolean inString = false;
    for (int i = start; i < text.length(); i++) {
      char c = text.charAt(i);
      if (inString) {
        if (c == '\\') {
          i++;
        } else if (c == '"') {
          inString = false;
        }
      } else if (c == '"') {
        inString = true;
      } else if (c == '{') {
        depth++;
      } else if (c == '}') {
        depth--;
        if (depth == 0) return i + 1;
      }
    }
    throw new IllegalArgumentException("CMD_WRITE param " + key
        + " is a JSON object that is never closed: expected a matching }");
  }
}
