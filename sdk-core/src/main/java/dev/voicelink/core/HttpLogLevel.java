package dev.voicelink.core;

/**
 * How much of its HTTP traffic the SDK writes to {@link VoiceLinkLog}; set it with {@link
 * VoiceLinkClient.Builder#httpLogging(HttpLogLevel)}. The default is {@link #NONE}.
 *
 * <p>Lines go to tag {@code http} at level {@link VoiceLinkLog.Level#DEBUG} (the sink must let that
 * level through). Whatever the level, secrets are redacted before a line is built: the {@code
 * Authorization}, {@code Proxy-Authorization}, {@code Cookie} and {@code Set-Cookie} headers, the web
 * API's signing headers {@code X-CheckSum} and {@code X-Nonce}, and in bodies and query strings the
 * values of fields named like a secret ({@code access_token}, {@code refresh_token}, {@code
 * client_secret}, {@code device_code}, {@code sms_code}, any name ending in {@code token} or holding
 * {@code secret} or {@code password}). Long secrets appear as a fingerprint such as {@code ‹secret
 * 1a2b3c4d›}, so that two lines can be matched; short ones as {@code ‹redacted›}.
 *
 * <p>Logging never changes what is sent and never reads a request body a second time: a body is
 * logged as it is written, at most its first 4 KiB, and a response body is peeked (at most 4 KiB)
 * without being consumed.
 *
 * <p>A constant, immutable and thread-safe; the level is fixed when the client is built.
 */
public enum HttpLogLevel {
  /** No HTTP logging. */
  NONE,
  /** One line per request (method, address, body size) and per response (status, time, size). */
  BASIC,
  /** {@link #BASIC} plus the headers of request and response, secrets redacted. */
  HEADERS,
  /**
   * {@link #HEADERS} plus the beginning of each body, secrets redacted, and the frames of the
   * interaction channel (at level {@link VoiceLinkLog.Level#VERBOSE}, tag {@code interact}). The
   * entity data of an upload ({@code data}) is shown only by its size: it is the user's personal
   * data, and large.
   */
  BODY
}
