package dev.voicelink.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okio.BufferedSink;
import org.junit.jupiter.api.Test;

/** What keeps a server left running for days, or sent a runaway body, within its memory. */
class ServerBoundsTest {
  static final String POLL = "{\"client_id\":\"vl-speaker-01\",\"grant_type\":\"refresh_token\","
      + "\"refresh_token\":\"rt_x\"}";

  @Test void aJournalLimitKeepsTheNewestCallsDroppingATenthAtATime() throws IOException {
    try (ReferenceServer server = ReferenceServer.builder().journalLimit(20).build().start()) {
      String token = server.authUrl() + "/oauth/ivs/token";
      for (int i = 0; i < 25; i++) {
        Wire.postJson(token, POLL.replace("rt_x", "rt_" + i));
      }
      // 20 kept, the 21st dropped the oldest 2, and so on: calls 6..24 remain
      assertThat(server.journal()).hasSize(19);
      assertThat(server.journal().get(0).body()).contains("\"rt_6\"");
      assertThat(server.journal().get(18).body()).contains("\"rt_24\"");

      // and it keeps only the head of a long body
      StringBuilder big = new StringBuilder(POLL.replace("rt_x", "rt_big"));
      while (big.length() < 10_000) big.insert(big.length() - 1, " ");
      Wire.postJson(token, big.toString());
      RecordedCall last = server.journal().get(server.journal().size() - 1);
      assertThat(last.body()).hasSize(Journal.KEPT_BODY_CHARS + "…(10000 characters)".length())
          .startsWith(POLL.replace("rt_x", "rt_big").substring(0, 60)).endsWith("…(10000 characters)");
    }
    assertThatThrownBy(() -> ReferenceServer.builder().journalLimit(9))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("journalLimit must be at least 10; was: 9");
  }

  @Test void aBodyOverTheLimitIsRefusedWith413AndNotKept() throws IOException {
    try (ReferenceServer server = ReferenceServer.builder().build().start()) {
      OkHttpClient client = new OkHttpClient();
      RequestBody huge = new RequestBody() {
        @Override public MediaType contentType() {
          return MediaType.get("application/x-www-form-urlencoded; charset=utf-8");
        }

        @Override public long contentLength() {
          return ReferenceServer.MAX_BODY_BYTES + 1;
        }

        @Override public void writeTo(BufferedSink sink) throws IOException {
          byte[] chunk = new byte[64 * 1024];
          java.util.Arrays.fill(chunk, (byte) 'a');
          long left = contentLength();
          while (left > 0) {
            int n = (int) Math.min(chunk.length, left);
            sink.write(chunk, 0, n);
            left -= n;
          }
        }
      };
      try (Response response = client.newCall(new Request.Builder()
          .url(server.baseUrl() + "/v2/voicelink/entity/upload-resource").post(huge).build()).execute()) {
        assertThat(response.code()).isEqualTo(413);
        assertThat(response.body().string()).isEqualTo("{\"error\":\"request_too_large\",\"message\":"
            + "\"the request body is larger than the reference server takes (67108864 bytes)\"}");
      }
      assertThat(server.journal().get(0).responseStatus()).isEqualTo(413);
      assertThat(server.journal().get(0).body()).as("the part that was read is not kept").isEmpty();
      client.dispatcher().executorService().shutdown();
      client.connectionPool().evictAll();
    }
  }
}
