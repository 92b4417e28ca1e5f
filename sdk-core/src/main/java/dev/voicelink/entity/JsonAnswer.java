package dev.voicelink.entity;

import com.squareup.moshi.JsonReader;
import dev.voicelink.core.Clock;
import dev.voicelink.core.internal.HttpFailure;
import dev.voicelink.core.internal.Scrub;
import java.io.EOFException;
import java.io.IOException;
import org.jspecify.annotations.Nullable;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * One JSON answer being read, as the web API's envelope ({@link Envelope}) and the platform tools'
 * upload answer ({@link PlatformToolsClient}) both read theirs: an answer that cannot be read is told
 * the same way for both, {@code malformed <operation> response (HTTP <status>): <problem>}, and is a
 * {@link dev.voicelink.core.ServerBusyException} when the server said when to come back.
 */
final class JsonAnswer {
  private final String operation;
  private final Response response;
  private final Clock serverClock;

  /** @param serverClock as {@link HttpFailure#retryAfterMillis} takes it */
  JsonAnswer(String operation, Response response, Clock serverClock) {
    this.operation = operation;
    this.response = response;
    this.serverClock = serverClock;
  }

  /** A reader of the answer's body. */
  JsonReader reader() throws IOException {
    ResponseBody body = response.body();
    if (body == null) throw malformed("no body");
    return JsonReader.of(body.source());
  }

  /**
   * The failure of an answer whose reading stopped at {@code stop}: Moshi's {@code
   * JsonDataException} or {@code JsonEncodingException}, whose message says where, or an {@link
   * EOFException}, the body ending early. Moshi's path names the answer's own member names, which may
   * echo a secret of the request.
   */
  IOException unreadable(Exception stop) {
    return malformed(stop instanceof EOFException ? "the body is empty or cut off"
        : Scrub.serverText(response.request(), String.valueOf(stop.getMessage())));
  }

  IOException malformed(@Nullable String problem) {
    return HttpFailure.of(response, "malformed " + operation + " response (HTTP " + response.code()
        + "): " + problem, serverClock);
  }
}
