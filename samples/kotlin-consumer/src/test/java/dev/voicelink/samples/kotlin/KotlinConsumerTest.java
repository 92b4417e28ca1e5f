package dev.voicelink.samples.kotlin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voicelink.auth.TokenManager;
import dev.voicelink.core.VoiceLinkCall;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.entity.Dimension;
import dev.voicelink.entity.EntityWebApi;
import dev.voicelink.entity.PersParam;
import dev.voicelink.entity.RecordSource;
import dev.voicelink.entity.ResourceDefinition;
import dev.voicelink.entity.UploadReceipt;
import dev.voicelink.entity.UploadRequest;
import dev.voicelink.testing.DefaultConsole;
import dev.voicelink.testing.ReferenceServer;
import dev.voicelink.testing.SimulatedTester;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the Kotlin getting-started code against the reference server. */
class KotlinConsumerTest {
  @TempDir File dir;

  @Test void signInUploadAndCancelFromKotlin() throws Exception {
    try (ReferenceServer server = ReferenceServer.builder().build().start()) {
      server.console().setPollIntervalSeconds(1);
      VoiceLinkClient client = GettingStartedKt.client(server.authUrl(), server.baseUrl());
      BlockingQueue<String> shown = new LinkedBlockingQueue<>();

      BlockingQueue<String> beforeSignIn = new LinkedBlockingQueue<>();
      TokenManager empty = TokenManager.builder(client).deviceGrant(DefaultConsole.CLIENT_ID)
          .store(new dev.voicelink.auth.InMemoryTokenStore()).build();
      GettingStartedKt.tokenInBackground(empty, beforeSignIn::add);
      assertThat(beforeSignIn.poll(10, TimeUnit.SECONDS)).isEqualTo("sign in first");

      TokenManager tokens = GettingStartedKt.signIn(client, new File(dir, "token.json"),
          (userCode, link) -> {
            shown.add(link);
            try {
              new SimulatedTester(server).approve(userCode);
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
          });
      assertThat(shown.poll()).startsWith(server.verificationUri() + "?user_code=");
      assertThat(tokens.state()).isEqualTo(TokenManager.State.VALID);

      UploadReceipt receipt = GettingStartedKt.upload(client, DefaultConsole.ACCOUNT_KEY);
      assertThat(receipt.sid()).startsWith("psn");

      // An upload cancelled while its records are read: the Kotlin callback shows nothing for a
      // cancellation, and nothing reaches the server.
      EntityWebApi api = EntityWebApi.builder(client).namespace("OS123")
          .accountKey(DefaultConsole.ACCOUNT_KEY).build();
      int uploadsBefore = server.journal().count("/entity/upload-resource");
      CountDownLatch reading = new CountDownLatch(1);
      CountDownLatch cancelled = new CountDownLatch(1);
      BlockingQueue<String> ui = new LinkedBlockingQueue<>();
      VoiceLinkCall<UploadReceipt> upload = GettingStartedKt.uploadInBackground(api,
          UploadRequest.builder().appid("5f1a2b3c")
              .definition(ResourceDefinition.builder().name("OS123.songs").mainField("name")
                  .secondaryFields("alias").dimension(Dimension.APPLICATION).build())
              .persParam(PersParam.application("5f1a2b3c"))
              .records(RecordSource.of(() -> {
                reading.countDown();
                try {
                  cancelled.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
                Map<String, String> song = new HashMap<>();
                song.put("name", "Yesterday");
                song.put("alias", "");
                return Collections.singletonList(song).iterator();
              }))
              .build(),
          ui::add);
      assertThat(reading.await(10, TimeUnit.SECONDS)).isTrue();
      upload.cancel(); // the callback ran, on this thread (a JVM's default executor)
      cancelled.countDown();
      assertThat(upload.isCancelled()).isTrue();
      assertThat(ui).as("nothing shown for a cancelled upload").isEmpty();
      client.close();
      for (Thread thread : Thread.getAllStackTraces().keySet()) {
        if (thread.getName().startsWith("voicelink-")) thread.join(10_000);
      }
      assertThat(server.journal().count("/entity/upload-resource")).isEqualTo(uploadsBefore);
    }
  }
}
