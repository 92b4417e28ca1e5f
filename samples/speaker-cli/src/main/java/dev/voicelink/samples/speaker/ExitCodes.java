package dev.voicelink.samples.speaker;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The exit codes of every speaker-cli command, and the one place their meanings are written: the
 * help of the CLI and of each subcommand lists {@link #DESCRIPTIONS}.
 */
final class ExitCodes {
  static final int SUCCESS = 0;
  static final int FAILURE = 1;
  static final int INVALID_INPUT = 2;
  static final int ACCESS_DENIED = 3;
  static final int CODE_EXPIRED = 4;
  static final int REAUTHORIZATION_REQUIRED = 5;
  static final int SERVER_REFUSED = 6;

  /** Each code and what it means, in order, as the help lists them. */
  static final Map<Integer, String> DESCRIPTIONS;

  static {
    Map<Integer, String> codes = new LinkedHashMap<>();
    codes.put(SUCCESS, "success");
    codes.put(FAILURE, "anything else (for example unreachable after retries)");
    codes.put(INVALID_INPUT, "invalid input or configuration (nothing was sent)");
    codes.put(ACCESS_DENIED, "access denied by the user");
    codes.put(CODE_EXPIRED, "the user code expired");
    codes.put(REAUTHORIZATION_REQUIRED, "re-authorization required");
    codes.put(SERVER_REFUSED, "the server refused the request (its code and message are printed)");
    DESCRIPTIONS = Collections.unmodifiableMap(codes);
  }

  private ExitCodes() {
  }

  /** The list picocli prints under "Exit codes:": code, then meaning. */
  static Map<String, String> helpList() {
    Map<String, String> list = new LinkedHashMap<>();
    for (Map.Entry<Integer, String> code : DESCRIPTIONS.entrySet()) {
      list.put(String.valueOf(code.getKey()), code.getValue());
    }
    return list;
  }
}
