package dev.voicelink.testing;

import java.util.Map;

/**
 * A way the real platform may answer where the spec leaves the detail open. By default the reference
 * server answers in the reference reading (seconds, {@code "00000"}, HTTP 400 for authorization
 * errors, ...); each variant switched on in the {@link Console} (or with {@code --variant} on the
 * command line) makes it answer in another plausible reading, so that a client can be tested against
 * every one. Variants combine, except the three statuses of authorization errors; where two change the
 * same field, one wins, as its javadoc says. See
 * docs/platform-assumptions.md for the open points and docs/reference-server.md for the switches.
 * Constants only: usable from any thread.
 */
public enum PlatformVariant {
  /** The device_code {@code interval} in milliseconds: 2000 for 2 s (protocol 2.1, 8: unit not stated). */
  INTERVAL_MILLIS("interval-ms"),
  /**
   * The device_code answer carries no {@code interval} (protocol 2.1 lists it; RFC 8628 section 3.2 makes
   * it optional, with 5 s as the default), and the console's {@code slow_down}, when on, holds the
   * device to 5 s. Wins over {@link #INTERVAL_MILLIS}, {@link #ZERO_INTERVAL} and {@link
   * #FRACTIONAL_INTERVAL}.
   */
  NO_INTERVAL("no-interval"),
  /**
   * The device_code {@code interval} is {@code 0} (protocol 2.1: an integer; 0 leaves a device no interval
   * to keep, so it polls at RFC 8628's default 5 s), and the console's {@code slow_down}, when on,
   * holds the device to 5 s. Wins over {@link #INTERVAL_MILLIS} and {@link #FRACTIONAL_INTERVAL};
   * {@link #NO_INTERVAL} wins over it.
   */
  ZERO_INTERVAL("zero-interval"),
  /**
   * The device_code {@code interval} in seconds carries a fraction: half a second more ({@code 2.5}
   * for 2 s; protocol 2.1 shows whole seconds). The milliseconds of {@link #INTERVAL_MILLIS} stay whole.
   */
  FRACTIONAL_INTERVAL("fractional-interval"),
  /** Token {@code created_at} in epoch milliseconds (protocol 2.2: "epoch-based number"). */
  CREATED_AT_MILLIS("created-at-ms"),
  /**
   * Token {@code created_at} in epoch seconds with a fraction: the time of issue to the millisecond,
   * always with three decimals ({@code 1763712005.250}, or {@code 1763712005.000} on a whole second), as
   * servers that keep time in floating seconds write it (protocol 2.2: "epoch-based number"). The
   * milliseconds of {@link #CREATED_AT_MILLIS} win and stay whole.
   */
  FRACTIONAL_CREATED_AT("fractional-created-at"),
  /**
   * Token {@code expires_in} in milliseconds: a lifetime of 100 days is 8640000000, more than 270 years
   * if read as seconds (protocol 2.2, 8: "documented as seconds").
   */
  HUGE_EXPIRES_IN("huge-expires-in"),
  /**
   * Token answers carry no {@code expires_in}; the tokens still live as long as the console says (spec
   * 2.2 lists the field; RFC 6749 section 5.1 only recommends it). Wins over {@link #HUGE_EXPIRES_IN}
   * when both are on.
   */
  NO_EXPIRES_IN("no-expires-in"),
  /**
   * Token {@code expires_in} in seconds carries a fraction: the lifetime left when the answer was
   * written, half a second short ({@code 8639999.5} for 100 days; protocol 2.2 shows whole seconds). The
   * milliseconds of {@link #HUGE_EXPIRES_IN} stay whole.
   */
  FRACTIONAL_EXPIRES_IN("fractional-expires-in"),
  /**
   * Token answers carry no {@code token_type} (protocol 2.2 says it is always {@code bearer}; the SDK
   * reads a missing one as that).
   */
  NO_TOKEN_TYPE("no-token-type"),
  /**
   * Token answers say {@code "token_type":"Bearer"}, as RFC 6750 writes the scheme (protocol 2.2 writes
   * {@code bearer}; token types are case-insensitive, RFC 6749 section 5.1). {@link #NO_TOKEN_TYPE}
   * wins over it.
   */
  TOKEN_TYPE_CAPITALISED("token-type-capitalised"),
  /**
   * Refresh answers carry no {@code refresh_token}, and the one used keeps working (protocol 3.2 says a new
   * one is returned; RFC 6749 section 6 lets a server keep the old one).
   */
  NO_REFRESH_ROTATION("no-rotation"),
  /** The web API's success code is {@code "0"} instead of {@code "00000"} (protocol 2.6, 7.2.3: not shown). */
  SUCCESS_CODE_ZERO("success-code-0"),
  /**
   * The web API's success code is the JSON number {@code 0} (protocol 2.6 types {@code code} as a string;
   * 7.2.3 does not show its value). Wins over {@link #SUCCESS_CODE_ZERO} when both are on.
   */
  SUCCESS_CODE_NUMERIC("success-code-numeric"),
  /**
   * Web API refusals come with HTTP 400 instead of 200; successes stay 200 (protocol 2.6 shows no
   * statuses; the envelope's {@code code} decides).
   */
  WEB_API_REFUSALS_HTTP_400("web-api-refusals-400"),
  /**
   * Web API refusals come with an HTTP status that names their kind: 401 for a checksum, time or
   * permission the server does not accept ({@code 10105}, {@code 10113}), 403 for an address not on
   * the IP whitelist ({@code 20004}), 404 for an unknown namespace, resource or upload ({@code 31402},
   * {@code 31403}, {@code 31405}) and 400 for the rest; successes stay 200 (protocol 2.6 shows no
   * statuses). Wins over {@link #WEB_API_REFUSALS_HTTP_400}.
   */
  WEB_API_REFUSALS_BY_KIND("web-api-refusals-by-kind"),
  /**
   * Web API refusal codes are JSON numbers ({@code "code":10113}; protocol 2.6 types {@code code} as a
   * string). With {@link #SUCCESS_CODE_NUMERIC}, every code is a number.
   */
  REFUSAL_CODES_NUMERIC("refusal-codes-numeric"),
  /**
   * Every JSON answer, the {@code data} object of every web API envelope and every interaction channel
   * message carry fields the spec does not list.
   */
  EXTRA_FIELDS("extra-fields"),
  /** Authorization service errors come with HTTP 200 instead of 400 (protocol 7.1: statuses not shown). */
  AUTH_ERRORS_HTTP_200("auth-errors-200"),
  /** Authorization service errors come with HTTP 401 instead of 400 (protocol 7.1: statuses not shown). */
  AUTH_ERRORS_HTTP_401("auth-errors-401"),
  /**
   * Authorization service errors come with HTTP 503 instead of 400, as a server behind a gateway that
   * maps every failure to "unavailable" does (protocol 7.1: statuses not shown). The body still decides:
   * the errors of protocol 7.1 keep their meaning, and a client may take any other error in a 5xx for a
   * failing back end.
   */
  AUTH_ERRORS_HTTP_503("auth-errors-503"),
  /**
   * An upload_entities 200 carries {@code "code":"0","message":"success"} besides its {@code sid}
   * (protocol 4.7 shows only the {@code sid}).
   */
  UPLOAD_ENTITIES_CODE("upload-entities-code"),
  /**
   * upload_entities refuses a token it does not take (unknown, expired or revoked) with HTTP 401
   * instead of 400; the body stays {@code {code, message, sid}} (protocol 4.7 and 7.2.1 show 400 for
   * every failure).
   */
  UPLOAD_ENTITIES_TOKEN_401("upload-entities-token-401"),
  /**
   * The {@code data} of web API answers has no {@code csid}; the envelope's {@code sid} identifies the
   * call (protocol 4.8: where the fields sit in the envelope is not shown).
   */
  NO_CSID("no-csid"),
  /**
   * Web API successes carry their fields at the top of the envelope, with {@code data} null: the
   * envelope's {@code sid} is the upload's ({@code psn…}), beside {@code csid} (protocol 4.8: where the
   * fields sit in the envelope is not shown), and a check's {@code reply} and {@code error} sit there
   * too. With {@link #NO_CSID}, there is no {@code csid} at all.
   */
  IDS_AT_TOP_LEVEL("ids-at-top-level"),
  /**
   * The numbers of the authorization service's answers come as JSON strings: the device code's {@code
   * interval} and {@code expires_in}, the token's {@code expires_in} and {@code created_at} (protocol 2.1,
   * 2.2 show them as numbers; a server that writes every value as text is common enough).
   */
  NUMBERS_AS_TEXT("numbers-as-text");

  private final String flag;

  PlatformVariant(String flag) {
    this.flag = flag;
  }

  /** The name used on the command line ({@code --variant interval-ms}). */
  public String flag() {
    return flag;
  }

  /**
   * The variant named {@code flag}.
   *
   * @throws IllegalArgumentException naming every variant, if there is none of that name
   */
  public static PlatformVariant ofFlag(String flag) {
    StringBuilder names = new StringBuilder();
    for (PlatformVariant variant : values()) {
      if (variant.flag.equals(flag)) return variant;
      names.append(names.length() == 0 ? "" : ", ").append(variant.flag);
    }
    throw new IllegalArgumentException("--variant must be one of " + names + "; was: " + flag);
  }

  /** The fields {@link #EXTRA_FIELDS} adds: names the spec does not list, of every JSON type. */
  static Map<String, Object> addExtraFields(Map<String, Object> object) {
    object.put("x_request_id", Ids.random("req", 8));
    object.put("x_server", Json.obj("name", "voicelink-reference", "build", 7,
        "regions", java.util.Arrays.asList("a", "b"), "beta", true, "note", null));
    Object data = object.get("data");
    if (data instanceof Map) {
      @SuppressWarnings("unchecked") Map<String, Object> fields = (Map<String, Object>) data;
      fields.put("x_trace", Json.obj("hops", 2));
    }
    return object;
  }
}
