package dev.voicelink.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.entity.Dimension;
import dev.voicelink.entity.EntityDiagnostics;
import dev.voicelink.entity.EntityWebApi;
import dev.voicelink.entity.ResourceDefinition;
import dev.voicelink.testing.DefaultConsole;
import dev.voicelink.testing.ReferenceServer;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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

  @Test void diagnosticsFindTheCausesThePageShows() throws Exception {
    File file = new File(dir, "contacts.jsonl");
    Files.write(file.toPath(), "{\"name\":\"Li Lei\",\"alias\":\"\"}\n".getBytes(StandardCharsets.UTF_8));
    assertThat(DynamicEntitiesSnippets.diagnose(DynamicEntitiesSnippets.definition(), file,
        "0123456789abcdef0123456789abcdef", "5f1a2b3c"))
        .containsExactly(EntityDiagnostics.Cause.MISSING_NAMESPACE_PREFIX,
            EntityDiagnostics.Cause.PERS_PARAM_NOT_SET);
  }
}
