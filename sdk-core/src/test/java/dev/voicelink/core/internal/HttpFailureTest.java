package dev.voicelink.core.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voicelink.core.ServerBusyException;
import dev.voicelink.core.VirtualTime;
import java.util.concurrent.TimeUnit;
import java.io.IOException;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.Test;

class HttpFailureTest {
  /** Fri, 21 Nov 2025 08:00:00 GMT: the time at the server when each answer below arrives. */
  private static final long SERVER_NOW = 1_763_712_000_000L;
  /** The client's estimate of the servers' time, right, as {@code SkewCorrectedClock} makes it. */
  private static final VirtualTime SERVER_CLOCK = new VirtualTime(SERVER_NOW);

  private static Response response(int code, String... headers) {
    Response.Builder builder = new Response.Builder()
        .request(new Request.Builder().url("https://api.example.com/v1/token").build())
        .protocol(Protocol.HTTP_1_1)
        .code(code)
        .message("status")
        // OkHttp's arrival time is the system clock's, never the one the app gave the client.
        .receivedResponseAtMillis(SERVER_NOW - TimeUnit.DAYS.toMillis(300));
    for (int i = 0; i < headers.length; i += 2) builder.addHeader(headers[i], headers[i + 1]);
    return builder.build();
  }

  private static long retryAfter(Response response) {
    return HttpFailure.retryAfterMillis(response, SERVER_CLOCK);
  }

  @Test void delaySecondsAreRead() {
    assertThat(retryAfter(response(503, "Retry-After", "120"))).isEqualTo(120_000L);
    assertThat(retryAfter(response(429, "Retry-After", " 0 "))).isEqualTo(0L);
  }

  @Test void anHttpDateIsReadAgainstTheAnswersOwnDate() {
    // The client's clock says 08:00; the answer's own Date header (10:00) is what counts.
    Response answer = response(503,
        "Date", "Fri, 21 Nov 2025 10:00:00 GMT",
        "Retry-After", "Fri, 21 Nov 2025 10:01:30 GMT");
    assertThat(retryAfter(answer)).isEqualTo(90_000L);
  }

  @Test void anHttpDateWithoutDateHeaderIsReadAgainstTheClientsEstimateOfTheServersTime() {
    Response answer = response(502, "Retry-After", "Fri, 21 Nov 2025 08:00:10 GMT");
    assertThat(retryAfter(answer)).isEqualTo(10_000L);

    // The device clock is an hour slow, and an earlier answer's Date header has taught the client so.
    VirtualTime device = new VirtualTime(SERVER_NOW - TimeUnit.HOURS.toMillis(1));
    SkewCorrectedClock corrected = new SkewCorrectedClock(device);
    assertThat(HttpFailure.retryAfterMillis(answer, corrected)).isEqualTo(3_610_000L);
    corrected.observeServerTime(SERVER_NOW);
    assertThat(HttpFailure.retryAfterMillis(answer, corrected)).isEqualTo(10_000L);
  }

  @Test void aDateInThePastMeansNow() {
    Response answer = response(503, "Date", "Fri, 21 Nov 2025 10:00:00 GMT",
        "Retry-After", "Fri, 21 Nov 2025 09:00:00 GMT");
    assertThat(retryAfter(answer)).isEqualTo(0L);
  }

  @Test void leadingZerosAreNoPartOfTheDelay() {
    assertThat(retryAfter(response(503, "Retry-After", "0000000005"))).isEqualTo(5_000L);
    assertThat(retryAfter(response(503, "Retry-After", "0000000000"))).isEqualTo(0L);
  }

  @Test void aHugeValueIsCappedAtADay() {
    assertThat(retryAfter(response(503, "Retry-After", "99999999999999999999")))
        .isEqualTo(86_400_000L);
    assertThat(retryAfter(response(503, "Retry-After", "200000")))
        .isEqualTo(86_400_000L);
  }

  @Test void invalidOrMisplacedHeadersAreIgnored() {
    assertThat(retryAfter(response(503))).isEqualTo(-1L);
    assertThat(retryAfter(response(503, "Retry-After", "-5"))).isEqualTo(-1L);
    assertThat(retryAfter(response(503, "Retry-After", "1.5"))).isEqualTo(-1L);
    assertThat(retryAfter(response(503, "Retry-After", "soon"))).isEqualTo(-1L);
    assertThat(retryAfter(response(503, "Retry-After", ""))).isEqualTo(-1L);
    // Only a refusal to serve now asks for a pause; on a 200 or a 404 the header means nothing here.
    assertThat(retryAfter(response(200, "Retry-After", "5"))).isEqualTo(-1L);
    assertThat(retryAfter(response(404, "Retry-After", "5"))).isEqualTo(-1L);
  }

  @Test void theFailureIsABusyExceptionOnlyWhenTheServerSaidWhen() {
    IOException busy = HttpFailure.of(response(503, "Retry-After", "2"), "HTTP 503 with an empty body",
        SERVER_CLOCK);
    assertThat(busy).isInstanceOf(ServerBusyException.class)
        .hasMessage("HTTP 503 with an empty body; the server asks to retry after 2 s");
    assertThat(((ServerBusyException) busy).httpCode()).isEqualTo(503);
    assertThat(((ServerBusyException) busy).retryAfterMillis()).isEqualTo(2000L);

    IOException plain = HttpFailure.of(response(503), "HTTP 503 with an empty body", SERVER_CLOCK);
    assertThat(plain).isNotInstanceOf(ServerBusyException.class)
        .hasMessage("HTTP 503 with an empty body");
  }
}
