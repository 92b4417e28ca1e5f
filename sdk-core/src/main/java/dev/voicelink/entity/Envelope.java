package dev.voicelink.entity;

import com.squareup.moshi.JsonDataException;
import com.squareup.moshi.JsonEncodingException;
import com.squareup.moshi.JsonReader;
import dev.voicelink.core.internal.HttpFailure;
import java.io.EOFException;
import java.io.IOException;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import okhttp3.Response;
import okhttp3.ResponseBody;

/** The web API's common response {@code {code, data, desc, sid}}, read strictly. */
final class Envelope {
  static final String SUCCESS = "00000";

  final String code;
  final String desc;
  final String sid;
  final @Nullable Object data;
  private final String operation;

  private Envelope(String operation, String code, String desc, String sid, @Nullable Object data) {
    this.operation = operation;
    this.code = code;
    this.desc = desc;
    this.sid = sid;
    this.data = data;
  }

  /**
   * Reads the envelope from any HTTP status (the platform does not document statuses) and throws the
   * typed refusal unless its code is success.
   */
  static Envelope read(String operation, Response response) throws IOException, WebApiException {
    ResponseBody body = response.body();
    if (body == null) throw malformed(operation, response, "no body");
    String code = null;
    String desc = null;
    String sid = null;
    Object data = null;
    boolean hasData = false;
    try {
      JsonReader reader = JsonReader.of(body.source());
      reader.beginObject();
      while (reader.hasNext()) {
        switch (reader.nextName()) {
          case "code":
            code = reader.nextString();
            break;
          case "desc":
            desc = reader.nextString();
            break;
          case "sid":
            sid = reader.nextString();
            break;
          case "data":
            data = reader.readJsonValue();
            hasData = true;
            break;
          default:
            reader.skipValue();
        }
      }
      reader.endObject();
    } catch (JsonDataException | JsonEncodingException e) {
      throw malformed(operation, response, e.getMessage());
    } catch (EOFException e) {
      throw malformed(operation, response, "the body is empty or cut off");
    }
    if (code == null) throw malformed(operation, response, "code is missing");
    if (desc == null) throw malformed(operation, response, "desc is missing");
    if (sid == null) throw malformed(operation, response, "sid is missing");
    if (!hasData) throw malformed(operation, response, "data is missing");
    if (code.equals(IpNotWhitelistedException.CODE)) throw new IpNotWhitelistedException(desc, sid);
    if (!code.equals(SUCCESS)) throw new WebApiException(code, desc, sid);
    return new Envelope(operation, code, desc, sid, data);
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

  private @Nullable Object dataField(String field) throws IOException {
    if (!(data instanceof Map)) throw malformed("data must be an object");
    Map<?, ?> map = (Map<?, ?>) data;
    if (!map.containsKey(field)) throw malformed("data." + field + " is missing");
    return map.get(field);
  }

  private IOException malformed(String problem) {
    return new IOException("malformed " + operation + " response: " + problem + " (sid " + sid + ")");
  }

  private static IOException malformed(String operation, Response response, @Nullable String problem) {
    return HttpFailure.of(response, "malformed " + operation + " response (HTTP " + response.code()
        + "): " + problem);
  }
}
