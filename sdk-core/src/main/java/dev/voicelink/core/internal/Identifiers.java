package dev.voicelink.core.internal;

import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The rules of an identifier from a console ({@code device_id}, {@code client_id}), shared by the
 * SDK's builders and the Agent's config, which names the setting it came from.
 */
public final class Identifiers {
  private static final int MAX_LENGTH = 256;

  private Identifiers() {
  }

  /**
   * {@code value}, checked: non-blank, at most {@value #MAX_LENGTH} characters, no lone surrogate,
   * and no control character or whitespace; with {@code innerSpaces}, a plain space inside is allowed
   * (RFC 6749 appendix A.1 makes a client identifier any printable ASCII) but not at either end, a
   * copy-and-paste slip. {@code field} names it in the message.
   *
   * @throws IllegalArgumentException naming {@code field} and the rule, the value shown printable
   */
  public static String check(@Nullable String value, String field, boolean innerSpaces) {
    if (value == null || value.trim().isEmpty()) {
      throw new IllegalArgumentException(field + " must not be empty");
    }
    if (value.length() > MAX_LENGTH) {
      throw new IllegalArgumentException(field + " must be at most " + MAX_LENGTH
          + " characters; was " + value.length());
    }
    if (innerSpaces && (value.charAt(0) == ' ' || value.charAt(value.length() - 1) == ' ')) {
      throw new IllegalArgumentException(field + " must not start or end with a space; was: \""
          + printable(value) + "\"");
    }
    Utf8Line.checkNoLoneSurrogate(field, value);
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (innerSpaces && c == ' ') continue;
      // isSpaceChar: the no-break spaces too, which isWhitespace leaves out.
      if (Character.isISOControl(c) || Character.isWhitespace(c) || Character.isSpaceChar(c)) {
        String rule = innerSpaces
            ? " must not contain control characters or whitespace other than a space"
            : " must not contain spaces or control characters";
        throw new IllegalArgumentException(field + rule + "; was: \"" + printable(value) + "\"");
      }
    }
    return value;
  }

  /**
   * {@code value} with its control characters (a line break, a tab) and spaces other than the
   * plain one (a no-break space) written as escapes.
   */
  public static String printable(String value) {
    StringBuilder result = new StringBuilder();
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (Character.isISOControl(c) || (c != ' ' && Character.isSpaceChar(c))) {
        result.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
      } else {
        result.append(c);
      }
    }
    return result.toString();
  }
}
