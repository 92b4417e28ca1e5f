package dev.voicelink.entity;

import com.squareup.moshi.JsonDataException;
import com.squareup.moshi.JsonEncodingException;
import com.squareup.moshi.JsonReader;
import dev.voicelink.core.Clock;
import dev.voicelink.core.internal.HttpFailure;
import dev.voicelink.core.internal.JsonValues;
import dev.voicelink.core.internal.Scrub;
import dev.voicelink.core.internal.Tolerance;
import java.io.EOFException;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import okhttp3.Response;

/**
 * The web API's common response {@code {code, data, desc, sid}}: every field required, unknown ones
 * kept aside. The spec does not show which code means success: {@code "00000"}, and also {@code "0"}
 * or a numeric 0; every other code is a typed refusal. Nor does it show where an operation's fields
 * sit (4.8): inside {@code data}, or, when {@code data} lacks one, at the top of the envelope.
 */
final class Envelope {
  static final String SUCCESS = "00000";
  /** Also read as success (protocol 7.2.3 does not show the code); logged once. */
  static final String ALSO_SUCCESS = "0";
  /** Protocol 4.9: the sid of an upload, the one check-resource takes, begins with it. */
  static final String UPLOAD_SID_PREFIX = "psn";

  final String code;
  final String desc;
  final String sid;
  final @Nullable Object data;
  /** The envelope's other fields, where an answer may carry its operation's fields. */
  private final Map<String, Object> topLevel;
  private final String operation;
  private final Tolerance tolerance;

  private Envelope(String operation, String code, String desc, String sid, @Nullable Object data,
      Map<String, Object> topLevel, Tolerance tolerance) {
    this.operation = operation;
    this.code = code;
    this.desc = desc;
    this.sid = sid;
    this.data = data;
    this.topLevel = topLevel;
    this.tolerance = tolerance;
  }

  /**
   * Reads the envelope from any HTTP status (the platform does not document statuses) and throws the
   * typed refusal unless its code is success.
   */
  static Envelope read(String operation, Response response, Tolerance tolerance, Clock serverClock)
      throws IOException, WebApiException {
    if (response.isRedirect()) {
      throw HttpFailure.redirect(response, "web API requests", "their signature and body");
    }
    JsonAnswer answer = new JsonAnswer(operation, response, serverClock);
    JsonReader reader = answer.reader();
    String code = null;
    String desc = null;
    String sid = null;
    Object data = null;
    boolean hasData = false;
    Map<String, Object> topLevel = new LinkedHashMap<>();
    Scrub.Echoes echoes = Scrub.echoesOf(response.request());
    try {
      reader.beginObject();
      while (reader.hasNext()) {
        String name = reader.nextName();
        switch (name) {
          // Told in exceptions and logs, each may echo a secret of the request (the signature refused).
          case "code":
            code = echoes.inServerText(readCode(reader));
            break;
          case "desc":
            desc = echoes.inServerText(reader.nextString());
            break;
          case "sid":
            sid = echoes.inServerText(reader.nextString());
            break;
          case "data":
            data = JsonValues.read(reader);
            hasData = true;
            break;
          default:
            topLevel.put(name, JsonValues.read(reader));
        }
      }
      reader.endObject();
    } catch (JsonDataException | JsonEncodingException | EOFException e) {
      throw answer.unreadable(e);
    }
    if (code == null) throw answer.malformed("code is missing");
    if (desc == null) throw answer.malformed("desc is missing");
    if (sid == null) throw answer.malformed("sid is missing");
    if (!hasData) throw answer.malformed("data is missing");
    if (code.equals(IpNotWhitelistedException.CODE)) throw new IpNotWhitelistedException(desc, sid);
    if (code.equals(ALSO_SUCCESS)) {
      tolerance.warnOnce("success-code-0", "the web API answered success with code 0: read as"
          + " success, like " + SUCCESS);
    } else if (!code.equals(SUCCESS)) {
      throw new WebApiException(code, desc, sid);
    }
    return new Envelope(operation, code, desc, sid, data, topLevel, tolerance);
  }

  /**
   * A code as text; a number is written without a fraction when it has none (0, not 0.0).
   *
   * @throws JsonDataException if the code is neither a string nor a number
   */
  static String readCode(JsonReader reader) throws IOException {
    if (reader.peek() != JsonReader.Token.NUMBER) return reader.nextString();
    String number = reader.nextString();
    try {
      double value = Double.parseDouble(number);
      if (value == Math.rint(value) && Math.abs(value) < 9.0e15) return Long.toString((long) value);
    } catch (NumberFormatException ignored) {
      // kept as written
    }
    return number;
  }

  /**
   * {@code csid} (see {@link #dataString}); where the answer has none at all, the envelope's {@code
   * sid}, which identifies the call just as {@code csid} does.
   */
  String csid() throws IOException {
    if (dataOrTopLevel() && !inData("csid") && !topLevel.containsKey("csid")) {
      tolerance.warnOnce("csid-envelope", "the web API answer has no data.csid: the envelope's sid,"
          + " which also identifies the call, is read as csid");
      return sid;
    }
    return dataString("csid");
  }

  /**
   * The upload's {@code sid} (see {@link #dataString}); without {@code data.sid}, the envelope's
   * own {@code sid} when it begins with {@value #UPLOAD_SID_PREFIX}, as an upload's does: then it
   * is the upload's, not only the call's. One that does not begin so is malformed: no check could
   * send it (protocol 4.9), so taking it would only move the failure to the check.
   */
  String uploadSid() throws IOException {
    if (dataOrTopLevel() && !inData("sid") && sid.startsWith(UPLOAD_SID_PREFIX)) {
      tolerance.warnOnce("top-level-sid", "the web API answer has no data.sid: the envelope's sid,"
          + " which begins with " + UPLOAD_SID_PREFIX + " like an upload's, is read as the upload's"
          + " sid");
      return sid;
    }
    String uploadSid = dataString("sid");
    if (!uploadSid.startsWith(UPLOAD_SID_PREFIX)) {
      throw malformed("data.sid must begin with " + UPLOAD_SID_PREFIX + ", as an upload's does; was: "
          + uploadSid);
    }
    return uploadSid;
  }

  String dataString(String field) throws IOException {
    Object value = dataField(field);
    if (!(value instanceof String)) throw malformed(field + " must be a string");
    return (String) value;
  }

  long dataInteger(String field) throws IOException {
    Object value = dataField(field);
    double d = value instanceof Number ? ((Number) value).doubleValue() : Double.NaN;
    // Beyond 2^53 a JSON number is no longer an exact integer, and longValue() would clamp it to
    // Long.MAX_VALUE: a code the server never sent.
    if (d != Math.rint(d) || Math.abs(d) > 9.0e15) {
      throw malformed(field + " must be an integer");
    }
    return (long) d;
  }

  /**
   * {@code data.field}; where {@code data} is null or lacks it, the envelope's top-level {@code
   * field} (protocol 4.8 does not show where an operation's fields sit).
   */
  private @Nullable Object dataField(String field) throws IOException {
    if (inData(field)) return ((Map<?, ?>) data).get(field);
    if (dataOrTopLevel() && topLevel.containsKey(field)) {
      tolerance.warnOnce("top-level-" + field, "the web API answer has no data." + field + ": its"
          + " top-level " + field + " is read");
      return topLevel.get(field);
    }
    if (!(data instanceof Map)) throw malformed("data must be an object");
    throw malformed("data." + field + " is missing");
  }

  private boolean inData(String field) {
    return data instanceof Map && ((Map<?, ?>) data).containsKey(field);
  }

  /** Whether the operation's fields may come from the top level: {@code data} is null or an object. */
  private boolean dataOrTopLevel() {
    return data == null || data instanceof Map;
  }

  private IOException malformed(String problem) {
    return new IOException("malformed " + operation + " response: " + problem + " (sid " + sid + ")");
  }
}
