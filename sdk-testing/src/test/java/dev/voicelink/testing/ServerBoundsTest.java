package dev.voicelink.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.Collections;
import java.util.List;
import java.util.Map;
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

  @Test void uploadsReplacedByANewerOneInEffectLetGoOfTheirRecordsAndTheirSidsStillAnswer() {
    ResourceStore store = new ResourceStore();
    EntityDefinition contacts = EntityDefinition.create(DefaultConsole.CONTACTS, "name",
        Collections.singletonList("alias"), EntityDefinition.USER);
    long hour = 3600_000L;
    ResourceStore.Upload first = store.add(contacts, "u1", records("Alice"), 0);
    ResourceStore.Upload second = store.add(contacts, "u1", records("Bob"), hour);
    ResourceStore.Upload otherOwner = store.add(contacts, "u2", records("Carol"), 0);

    assertThat(store.inEffect(DefaultConsole.CONTACTS, "u1", hour)).isSameAs(first);
    assertThat(store.inEffect(DefaultConsole.CONTACTS, "u1", hour + ResourceStore.IN_EFFECT_AFTER_MILLIS))
        .isSameAs(second);
    assertThat(first.records).as("never in effect again").isEmpty();
    assertThat(first.recordCount).isEqualTo(1);
    assertThat(store.bySid(first.sid)).isSameAs(first);
    assertThat(otherOwner.records).hasSize(1);
  }

  /** A query matching against an upload's records keeps them though a newer one takes effect meanwhile. */
  @Test void recordsTakenForAQueryStayWholeWhenANewerUploadTakesEffect() {
    ResourceStore store = new ResourceStore();
    EntityDefinition contacts = EntityDefinition.create(DefaultConsole.CONTACTS, "name",
        Collections.singletonList("alias"), EntityDefinition.USER);
    store.add(contacts, "u1", records("Alice"), 0);
    store.add(contacts, "u1", records("Bob"), 3600_000L);
    List<Map<String, String>> matching = store.recordsInEffect(DefaultConsole.CONTACTS, "u1",
        ResourceStore.IN_EFFECT_AFTER_MILLIS);

    store.recordsInEffect(DefaultConsole.CONTACTS, "u1", 3600_000L + ResourceStore.IN_EFFECT_AFTER_MILLIS);

    assertThat(matching).containsExactly(Collections.singletonMap("name", "Alice"));
  }

  @Test void theNewestUploadByUploadTimeIsInEffectWhicheverWasStoredLast() {
    ResourceStore store = new ResourceStore();
    EntityDefinition contacts = EntityDefinition.create(DefaultConsole.CONTACTS, "name",
        Collections.singletonList("alias"), EntityDefinition.USER);
    // A large upload received first finishes decoding after a small one received a moment later.
    ResourceStore.Upload small = store.add(contacts, "u1", records("Bob"), 1_001);
    store.add(contacts, "u1", records("Alice"), 1_000);

    assertThat(store.inEffect(DefaultConsole.CONTACTS, "u1", 1_001 + ResourceStore.IN_EFFECT_AFTER_MILLIS))
        .isSameAs(small);
  }

  @Test void codesAndTokensExpiredForADayAreForgotten() {
    AuthState state = new AuthState();
    long day = AuthState.KEPT_AFTER_EXPIRY_MILLIS;
    AuthState.DeviceGrant code = state.newDeviceGrant("vl-speaker-01", "SN-1", 0, 600_000, 5_000);
    AuthState.TokenGrant token = state.issue(AuthState.TokenKind.CLOUD, "vl-speaker-01", null, null, 0,
        3600, 7200);

    state.newDeviceGrant("vl-speaker-01", "SN-2", 600_000 + day, 600_000, 5_000);
    assertThat(state.byDeviceCode(code.deviceCode)).as("expired, still known").isSameAs(code);
    assertThat(state.anyAccessToken(token.accessToken)).isSameAs(token);

    state.newDeviceGrant("vl-speaker-01", "SN-3", 7_200_000 + day + 1, 600_000, 5_000);
    assertThat(state.byDeviceCode(code.deviceCode)).isNull();
    assertThat(state.byUserCode(code.userCode)).isNull();
    assertThat(state.anyAccessToken(token.accessToken)).isNull();
    assertThat(state.byRefreshToken(token.refreshToken)).isNull();
    assertThat(state.summary()).startsWith("grants=2 access=0 refresh=0 ");
  }

  private static List<Map<String, String>> records(String name) {
    return Collections.singletonList(Collections.singletonMap("name", name));
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
