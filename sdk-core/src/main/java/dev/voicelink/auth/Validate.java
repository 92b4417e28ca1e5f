package dev.voicelink.auth;

import dev.voicelink.core.internal.Redact;
import dev.voicelink.core.internal.Utf8Line;
import org.jspecify.annotations.Nullable;

final class Validate {
  static final int MAX_IDENTIFIER_LENGTH = 256;

  private Validate() {
  }

  /** A console identifier ({@code device_id}): non-blank, printable, bounded, without spaces. */
  static String identifier(@Nullable String value, String field) {
    return identifier(value, field, false);
  }

  /**
   * A {@code client_id}: as {@link #identifier}, but a space inside is allowed: RFC 6749 appendix A.1
   * makes a client identifier any printable ASCII, space included. A space at either end is a
   * copy-and-paste slip, and is refused.
   */
  static String clientId(@Nullable String value) {
    return identifier(value, "client_id", true);
  }

  private static String identifier(@Nullable String value, String field, boolean innerSpaces) {
    if (value == null || value.trim().isEmpty()) {
      throw new IllegalArgumentException(field + " must not be empty");
    }
    if (value.length() > MAX_IDENTIFIER_LENGTH) {
      throw new IllegalArgumentException(field + " must be at most " + MAX_IDENTIFIER_LENGTH
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

  /** A {@code client_secret} the app gives a builder, checked as {@link Redact#checkSecret} does. */
  static String clientSecret(@Nullable String value) {
    return Redact.checkSecret(value, "client_secret");
  }

  /**
   * An OAuth {@code scope}: space-separated tokens of the characters RFC 6749 section 3.3 allows
   * (printable ASCII but space, {@code "} and {@code \\}).
   */
  static String scope(@Nullable String value) {
    if (value == null || value.trim().isEmpty()) {
      throw new IllegalArgumentException("scope must not be empty");
    }
    for (String token : value.split(" ", -1)) {
      if (token.isEmpty()) {
        throw new IllegalArgumentException("scope must be names separated by single spaces; was: \""
            + printable(value) + "\"");
      }
      for (int i = 0; i < token.length(); i++) {
        char c = token.charAt(i);
        if (c < 0x21 || c > 0x7e || c == '"' || c == '\\') {
          throw new IllegalArgumentException("scope must hold printable ASCII without \" or \\;"
              + " was: \"" + printable(value) + "\"");
        }
      }
    }
    return value;
  }

  /**
   * {@code value} with its control characters (a line break, a tab) and spaces other than the
   * plain one (a no-break space) written as escapes.
   */
  static String printable(String value) {
    StringBuilder result = new StringBuilder();
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (Character.isISOControl(c) || (c != ' ' && Character.isSpaceChar(c))) {
        result.append(String.format("\\u%04x", (int) c));
      } else {
        result.append(c);
      }
    }
    return result.toString();
  }
}
