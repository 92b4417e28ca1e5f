package dev.voicelink.testing;

/** Every {@code code} the web API answers with; docs/web-api-error-codes.md lists them with their meaning. */
final class WebApiCodes {
  static final String SUCCESS = "00000";
  /** The success code of {@link PlatformVariant#SUCCESS_CODE_ZERO}. */
  static final String SUCCESS_ZERO = "0";
  static final String NO_PERMISSION = "10105";
  static final String MISSING = "10106";
  static final String ILLEGAL_VALUE = "10107";
  static final String STALE_TIME = "10113";
  static final String IP_NOT_ALLOWED = "20004";
  static final String UNKNOWN_NAMESPACE = "31402";
  static final String UNKNOWN_RESOURCE = "31403";
  static final String DIMENSION_NOT_SUPPORTED = "31404";
  static final String UNKNOWN_SID = "31405";
  static final String BASE64 = "32114";
  static final String ENCODING = "32115";
  static final String RECORD_NOT_JSON = "32116";
  static final String RECORD_FIELDS = "32117";
  static final String NO_RECORDS = "32118";

  /** {@code error} values of check-resource. */
  static final int CHECK_IN_EFFECT = 0;
  static final int CHECK_UPLOADED = 1;
  static final int CHECK_PROCESSING = 2;
  static final int CHECK_PACKAGED = 3;

  private WebApiCodes() {
  }
}
