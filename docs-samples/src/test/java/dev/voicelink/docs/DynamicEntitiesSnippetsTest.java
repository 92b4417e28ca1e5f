package dev.voicelink.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voicelink.auth.TokenManager;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.entity.Dimension;
import dev.voicelink.entity.EntityDiagnostics;
import dev.voicelink.entity.EntityWebApi;
import dev.voicelink.entity.PlatformToolsClient;
import dev.voicelink.entity.RecordSource;
import dev.voicelink.entity.ResourceDefinition;
import dev.voicelink.testing.DefaultConsole;
import dev.voicelink.testing.RecordedCall;
import dev.voicelink.testing.ReferenceServer;
import dev.voicelink.testing.ServerClock;
import dev.voicelink.testing.SimulatedTester;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the pages claim these snippets produce. */
class DynamicEntitiesSnippetsTest {
  @TempDir File dir;

  @Test void definitionIsUserLevel() {
    ResourceDefinition contacts = DynamicEntitiesSnippets.definition();
    assertThat(contacts.name().value()).isEqualTo("OS123.contacts");
    assertThat(contacts.dimension()).isEqualTo(Dimension.USER);
  }

  @Test void activationIsTheJsonThePageShows() {
    assertThat(DynamicEntitiesSnippets.activate()).isEqualTo("{\"appid\":\"\",\"uid\":\"\",\"family\":\"f-01\"}");
  }

  @Test void progressEndsAtAHundredPercent() throws Exception {
    File file = new File(dir, "contacts.jsonl");
    Files.write(file.toPath(), "{\"name\":\"Li Lei\",\"alias\":\"\"}\n".getBytes(StandardCharsets.UTF_8));
    AtomicInteger percent = new AtomicInteger(-1);
    try (ReferenceServer server = ReferenceServer.builder().build().start();
        VoiceLinkClient client = VoiceLinkClient.builder().baseUrl(server.baseUrl()).build()) {
      EntityWebApi api = EntityWebApi.builder(client)
          .namespace(DefaultConsole.NAMESPACE).accountKey(DefaultConsole.ACCOUNT_KEY).build();
      assertThat(DynamicEntitiesSnippets.uploadWithProgress(api, DynamicEntitiesSnippets.definition(),
          "0123456789abcdef0123456789abcdef", file, Runnable::run, percent).sid()).startsWith("psn");
    }
    assertThat(percent.get()).isEqualTo(100);
  }

  @Test void aTokenThePlatformNoLongerTakesIsRefreshedOnceAndTheUploadSentAgain() throws Exception {
    ServerClock serverClock = ServerClock.manual(System.currentTimeMillis());
    try (ReferenceServer server = ReferenceServer.builder().clock(serverClock).build().start();
        VoiceLinkClient client = VoiceLinkClient.builder().authUrl(server.authUrl())
            .platformUrl(server.platformUrl()).build()) {
      server.console().setPollIntervalSeconds(1);
      TokenManager tokens = GettingStartedJvm.signIn(client, new File(dir, "token.json"),
          (userCode, link) -> {
            try {
              new SimulatedTester(server).approve(userCode);   // the user, on a phone
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
          });
      PlatformToolsClient tools = PlatformToolsClient.builder(client).userTokens(tokens).build();
      // The platform's clock passes the token's lifetime; the device, which counts the lifetime from
      // its own receipt of the token, still holds it as valid.
      serverClock.advance(server.console().getAccessTokenLifetimeSeconds() + 1, TimeUnit.SECONDS);
      String refused = tokens.accessToken();
      int signedIn = server.journal().snapshot().size();

      assertThat(DynamicEntitiesSnippets.uploadRefreshingARefusedToken(tools, tokens,
          DynamicEntitiesSnippets.definition(),
          RecordSource.fromText("{\"name\":\"Li Lei\",\"alias\":\"\"}"))).startsWith("psn");

      // Everything after the sign-in: one refused upload, one refresh, one upload with the new token.
      List<RecordedCall> calls = server.journal().snapshot();
      List<RecordedCall> after = calls.subList(signedIn, calls.size());
      List<String> sequence = new ArrayList<>();
      for (RecordedCall call : after) sequence.add(call.path() + " " + call.responseStatus());
      assertThat(sequence).containsExactly("/platform/tools/upload_entities 400",
          "/auth/oauth/ivs/token 200", "/platform/tools/upload_entities 200");
      assertThat(after.get(0).responseBody()).contains("\"code\":\"40103\"");
      assertThat(after.get(0).header("Authorization")).isEqualTo(refused);
      assertThat(after.get(1).body()).contains("\"grant_type\":\"refresh_token\"");
      assertThat(after.get(2).header("Authorization")).isEqualTo(tokens.accessToken())
          .isNotEqualTo(refused);
    }
  }

  @Test void diagnosticsFindTheCausesThePageShows() throws Exception {
    File file = new File(dir, "contacts.jsonl");
    Files.write(file.toPath(), "{\"name\":\"Li Lei\",\"alias\":\"\"}\n".getBytes(StandardCharsets.UTF_8));
    assertThat(DynamicEntitiesSnippets.diagnose(DynamicEntitiesSnippets.definition(), file,
        "0123456789abcdef0123456789abcdef", "5f1a2b3c"))
        .containsExactly(EntityDiagnostics.Cause.MISSING_NAMESPACE_PREFIX,
            EntityDiagnostics.Cause.PERS_PARAM_NOT_SET);
  }
}
