package dev.voicelink.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voicelink.auth.FileTokenStore;
import dev.voicelink.auth.TokenManager;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.entity.CheckResult;
import dev.voicelink.entity.EntityWebApi;
import dev.voicelink.entity.UploadReceipt;
import dev.voicelink.testing.DefaultConsole;
import dev.voicelink.testing.RecordedCall;
import dev.voicelink.testing.ReferenceServer;
import dev.voicelink.testing.ServerClock;
import dev.voicelink.testing.SimulatedTester;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the getting-started code of the docs against the reference server. */
class GettingStartedJvmTest {
  @TempDir File dir;
  private final ServerClock serverClock = ServerClock.manual(System.currentTimeMillis());
  private ReferenceServer server;

  @BeforeEach void start() throws Exception {
    server = ReferenceServer.builder().clock(serverClock).build().start();
  }

  @AfterEach void stop() throws Exception {
    server.close();
  }

  @Test void signInUploadCheckAndActivate() throws Exception {
    VoiceLinkClient config = GettingStartedJvm.client(server.authUrl(), server.baseUrl());
    List<String> shown = new ArrayList<>();
    File tokenFile = new File(dir, "token.json");

    TokenManager tokens = GettingStartedJvm.signIn(config, tokenFile, (userCode, link) -> {
      shown.add(link);
      try {
        new SimulatedTester(server).approve(userCode);   // the user, on a phone
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    });

    assertThat(shown).hasSize(1);
    assertThat(shown.get(0)).startsWith(server.verificationUri() + "?user_code=");
    assertThat(tokens.state()).isEqualTo(TokenManager.State.VALID);
    assertThat(new FileTokenStore(tokenFile).load()).isNotNull();
    assertThat(tokens.accessToken()).isEqualTo(new FileTokenStore(tokenFile).load().accessToken());

    UploadReceipt receipt = GettingStartedJvm.upload(config, DefaultConsole.ACCOUNT_KEY);
    assertThat(receipt.sid()).startsWith("psn");
    RecordedCall upload = server.journal().calls("/entity/upload-resource").get(0);
    assertThat(upload.headers().get("X-NameSpace")).isEqualTo("OS123");
    assertThat(upload.body()).contains("res_name=OS123.songs");

    // The server's processing takes a minute; its clock is moved instead of waiting.
    serverClock.advance(61, TimeUnit.SECONDS);
    EntityWebApi api = EntityWebApi.builder(config).namespace("OS123")
        .accountKey(DefaultConsole.ACCOUNT_KEY).build();
    CheckResult result = api.checkResource(receipt.sid()).execute();
    assertThat(result.sid()).isEqualTo(receipt.sid());

    assertThat(GettingStartedJvm.activation()).isEqualTo("{\"appid\":\"\"}");
    config.close();
  }
}
