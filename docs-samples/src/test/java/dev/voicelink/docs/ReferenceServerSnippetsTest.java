package dev.voicelink.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voicelink.auth.DeviceAuthorizer;
import dev.voicelink.auth.DeviceCode;
import dev.voicelink.auth.DeviceFlowOutcome;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.testing.Account;
import dev.voicelink.testing.Console;
import dev.voicelink.testing.EntityDefinition;
import dev.voicelink.testing.PlatformVariant;
import dev.voicelink.testing.ReferenceServerMain;
import dev.voicelink.testing.RegisteredClient;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReferenceServerSnippetsTest {
  @Test void theInTestsSnippetRuns() throws Exception {
    String[] seen = new String[1];
    ReferenceServerSnippets.inTests(server -> {
      try (VoiceLinkClient client = VoiceLinkClient.builder().authUrl(server.authUrl()).build()) {
        seen[0] = DeviceAuthorizer.builder(client).clientId("vl-speaker-01").build()
            .requestCode("SN-0001-DEMO").execute().userCode();
      }
      return seen[0];
    });
    assertThat(seen[0]).isNotEmpty();
  }

  @Test void theVariantsSnippetSwitchesThemOn() throws Exception {
    ReferenceServerSnippets.variants(server -> {
      assertThat(server.console().getVariants()).containsExactly(PlatformVariant.INTERVAL_MILLIS,
          PlatformVariant.AUTH_ERRORS_HTTP_401);
      try (VoiceLinkClient client = VoiceLinkClient.builder().authUrl(server.authUrl()).build()) {
        assertThat(DeviceAuthorizer.builder(client).clientId("vl-speaker-01").build()
            .requestCode("SN-0001-DEMO").execute().intervalMillis()).isEqualTo(2000);
      }
    });
  }

  @Test void aScriptApprovesOnAStandaloneServerInAProcessOfItsOwn() throws Exception {
    List<String> command = Arrays.asList(
        new File(System.getProperty("java.home"), "bin/java").getPath(), "-cp",
        System.getProperty("java.class.path"), ReferenceServerMain.class.getName(), "--port", "0");
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    DeviceFlowOutcome[] outcome = new DeviceFlowOutcome[1];
    String[] shown = new String[1];
    ReferenceServerSnippets.approveOnAStandaloneServer(command, new PrintStream(log, true, "UTF-8"),
        new ReferenceServerSnippets.StandaloneDevice() {
          VoiceLinkClient client;
          DeviceAuthorizer authorizer;
          DeviceCode code;

          @Override public String showUserCode(String authUrl) throws Exception {
            client = VoiceLinkClient.builder().authUrl(authUrl).build();
            authorizer = DeviceAuthorizer.builder(client).clientId("vl-speaker-01").build();
            code = authorizer.requestCode("SN-0001-DEMO").execute();
            return shown[0] = code.userCode();
          }

          @Override public void awaitSignedIn() throws Exception {
            try {
              outcome[0] = authorizer.poll(code).execute();
            } finally {
              client.close();
            }
          }
        });
    assertThat(outcome[0].kind()).isEqualTo(DeviceFlowOutcome.Kind.AUTHORIZED);
    // The SMS code, printed once (standard error merged into the log), in its documented wording
    List<String> sms = new ArrayList<>();
    for (String line : new String(log.toByteArray(), StandardCharsets.UTF_8).split("\\R")) {
      if (line.contains("verification code")) sms.add(line);
    }
    assertThat(sms).hasSize(1);
    assertThat(sms.get(0)).matches("SMS to 13800000000: verification code [0-9]{6}");
    assertThat(shown[0]).isNotEmpty();
  }

  @Test void theConsoleSnippetBuilds() {
    Console console = ReferenceServerSnippets.console();
    assertThat(console.getTesterPhones()).containsExactly("13800000000");
  }

  @Test void bothConsoleExamplesAreTheDefaultConsole() throws Exception {
    String defaults = values(Console.defaults());
    assertThat(values(ReferenceServerSnippets.console())).isEqualTo(defaults);
    assertThat(values(Console.fromJson(consoleJsonExample()))).isEqualTo(defaults);
  }

  /** The JSON block of reference-server.md's console section. */
  private static String consoleJsonExample() throws Exception {
    Path page = Paths.get(System.getProperty("voicelink.root", "..")).toAbsolutePath().normalize()
        .resolve("docs/reference-server.md");
    String text = new String(Files.readAllBytes(page), StandardCharsets.UTF_8);
    int section = text.indexOf("## The console");
    int start = text.indexOf("```json\n", section) + "```json\n".length();
    return text.substring(start, text.indexOf("```", start));
  }

  /** Every value of {@code console}, secrets included, as text that is equal for equal consoles. */
  private static String values(Console console) {
    StringBuilder out = new StringBuilder();
    for (RegisteredClient c : console.getClients()) {
      out.append("client ").append(Arrays.asList(c.clientId(), c.clientSecret(), c.name(), c.appid(),
          console.getDeviceIds(c.clientId()))).append('\n');
    }
    out.append("testers ").append(console.getTesterPhones()).append('\n');
    for (Account a : console.getAccounts()) {
      out.append("account ").append(Arrays.asList(a.namespace(), a.accountKey(), a.appid(),
          a.dynamicEntityPermission(), a.ipWhitelistEnabled(), a.ipWhitelist())).append('\n');
    }
    for (EntityDefinition e : console.getEntities()) {
      out.append("entity ").append(Arrays.asList(e.resName(), e.mainField(), e.secondaryFields(),
          e.dimension())).append('\n');
    }
    out.append("lifetimes ").append(Arrays.asList(console.getAccessTokenLifetimeSeconds(),
        console.getRefreshTokenLifetimeSeconds(), console.getUserCodeLifetimeSeconds(),
        console.getSmsCodeLifetimeSeconds(), console.getPollIntervalSeconds(), console.isSlowDown(),
        console.getVariants()));
    return out.toString();
  }
}
