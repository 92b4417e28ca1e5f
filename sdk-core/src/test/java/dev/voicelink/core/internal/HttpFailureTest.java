package dev.voicelink.core.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voicelink.core.ServerBusyException;
import java.io.IOException;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.Test;

class HttpFailureTest {
  private static final long ARRIVED = 1_763_712_000_000L;

  private static Response response(int code, String... headers) {
    Response.Builder builder = new Response.Builder()
        .request(new Request.Builder().url("https://api.example.com/v1/token").build())
        .protocol(Protocol.HTTP_1_1)
        .code(code)
        .message("status")
        .receivedResponseAtMillis(ARRIVED);
    for (int i = 0; i < headers.length; i += 2) builder.addHeader(headers[i], headers[i + 1]);
    return builder.build();
  }

  @Test void delaySecondsAreRead() {
    assertThat(HttpFailure.retryAfterMillis(response(503, "Retry-After", "120"))).isEqualTo(120_000L);
    assertThat(HttpFailure.retryAfterMillis(response(429, "Retry-After", " 0 "))).isEqualTo(0L);
  }

  @Test void anHttpDateIsReadAgainstTheAnswersOwnDate() {
    // The device clock (the arrival time) is a day off; the server's Date header is what counts.
    Response answer = response(503,
        "Date", "Fri, 21 Nov 2025 10:00:00 GMT",
        "Retry-After", "Fri, 21 Nov 2025 10:01:30 GMT");
    assertThat(HttpFailure.retryAfterMillis(answer)).isEqualTo(90_000L);
  }

  @Test void anHttpDateWithoutDateHeaderIsReadAgainstTheArrivalTime() {
    Response answer = response(502, "Retry-After", "Fri, 21 Nov 2025 08:00:10 GMT");
    assertThat(ARRIVED).isEqualTo(1_763_712_000_000L); // Fri, 21 Nov 2025 08:00:00 GMT
    assertThat(HttpFailure.retryAfterMillis(answer)).isEqualTo(10_000L);
  }

  @Test void aDateInThePastMeansNow() {
    Response answer = response(503, "Date", "Fri, 21 Nov 2025 10:00:00 GMT",
        "Retry-After", "Fri, 21 Nov 2025 09:00:00 GMT");
    assertThat(HttpFailure.retryAfterMillis(answer)).isEqualTo(0L);
  }

  @Test void aHugeValueIsCappedAtADay() {
    assertThat(HttpFailure.retryAfterMillis(response(503, "Retry-After", "99999999999999999999")))
        .isEqualTo(86_400_000L);
    assertThat(HttpFailure.retryAfterMillis(response(503, "Retry-After", "200000")))
        .isEqualTo(86_400_000L);
  }

  @Test void invalidOrMisplacedHeadersAreIgnored() {
    assertThat(HttpFailure.retryAfterMillis(response(503))).isEqualTo(-1L);
    assertThat(HttpFailure.retryAfterMillis(response(503, "Retry-After", "-5"))).isEqualTo(-1L);
    assertThat(HttpFailure.retryAfterMillis(response(503, "Retry-After", "1.5"))).isEqualTo(-1L);
    assertThat(HttpFailure.retryAfterMillis(response(503, "Retry-After", "soon"))).isEqualTo(-1L);
    assertThat(HttpFailure.retryAfterMillis(response(503, "Retry-After", ""))).isEqualTo(-1L);
    // Only a refusal to serve now asks for a pause; on a 200 or a 404 the header means nothing here.
    assertThat(HttpFailure.retryAfterMillis(response(200, "Retry-After", "5"))).isEqualTo(-1L);
    assertThat(HttpFailure.retryAfterMillis(response(404, "Retry-After", "5"))).isEqualTo(-1L);
  }

  @Test void theFailureIsABusyExceptionOnlyWhenTheServerSaidWhen() {
    IOException busy = HttpFailure.of(response(503, "Retry-After", "2"), "HTTP 503 with an empty body");
    assertThat(busy).isInstanceOf(ServerBusyException.class)
        .hasMessage("HTTP 503 with an empty body; the server asks to retry after 2 s");
    assertThat(((ServerBusyException) busy).httpCode()).isEqualTo(503);
    assertThat(((ServerBusyException) busy).retryAfterMillis()).isEqualTo(2000L);

    IOException plain = HttpFailure.of(response(503), "HTTP 503 with an empty body");
    assertThat(plain).isNotInstanceOf(ServerBusyException.class)
        .hasMessage("HTTP 503 with an empty body");
  }
}
