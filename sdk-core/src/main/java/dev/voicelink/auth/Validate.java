package dev.voicelink.auth;

import dev.voicelink.core.internal.Identifiers;
import dev.voicelink.core.internal.Redact;
import org.jspecify.annotations.Nullable;

final class Validate {
  private Validate() {
  }

  /** A console identifier ({@code device_id}): non-blank, printable, bounded, without spaces. */
  static String identifier(@Nullable String value, String field) {
    return Identifiers.check(value, field, false);
  }

  /**
   * A {@code client_id}: as {@link #identifier}, but a space inside is allowed: RFC 6749 appendix A.1
   * makes a client identifier any printable ASCII, space included. A space at either end is a
   * copy-and-paste slip, and is refused.
   */
  static String clientId(@Nullable String value) {
    return Identifiers.check(value, "client_id", true);
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
            + Identifiers.printable(value) + "\"");
      }
      for (int i = 0; i < token.length(); i++) {
        char c = token.charAt(i);
        if (c < 0x21 || c > 0x7e || c == '"' || c == '\\') {
          throw new IllegalArgumentException("scope must hold printable ASCII without \" or \\;"
              + " was: \"" + Identifiers.printable(value) + "\"");
        }
      }
    }
    return value;
  }
}
