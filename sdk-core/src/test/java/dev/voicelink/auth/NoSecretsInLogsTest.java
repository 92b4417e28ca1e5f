package dev.voicelink.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voicelink.auth.DeviceFlowOutcome.Kind;
import dev.voicelink.core.VirtualTime;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.core.VoiceLinkLog;
import dev.voicelink.testing.DefaultConsole;
import dev.voicelink.testing.Endpoint;
import dev.voicelink.testing.Fault;
import dev.voicelink.testing.ReferenceServer;
import dev.voicelink.testing.ServerClock;
import dev.voicelink.testing.SimulatedTester;
import java.io.File;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every log line of a whole sign-in, refresh and cloud-token session, at the finest level. */
class NoSecretsInLogsTest {
  @TempDir File dir;
  private final List<String> lines = Collections.synchronizedList(new ArrayList<>());

  @AfterEach void restore() {
    VoiceLinkLog.setSink(VoiceLinkLog.javaUtilLogging());
  }

  @Test void noSecretAppearsInAnyLogLine() throws Exception {
    VoiceLinkLog.setSink(new VoiceLinkLog.Sink() {
      @Override public boolean isLoggable(VoiceLinkLog.Level level, String tag) {
        return true;
      }

      @Override public void log(VoiceLinkLog.Level level, String tag, String message,
          @Nullable Throwable error) {
        StringBuilder line = new StringBuilder(level + " " + tag + " " + message);
        for (Throwable t = error; t != null; t = t.getCause()) line.append(" | ").append(t);
        lines.add(line.toString());
      }
    });
    long start = 1_763_712_000_000L;
    VirtualTime time = new VirtualTime(start);
    ServerClock serverClock = ServerClock.manual(start);
    List<String> secrets = new ArrayList<>();
    secrets.add(DefaultConsole.CLIENT_SECRET);
    try (ReferenceServer server = ReferenceServer.builder().clock(serverClock).build().start()) {
      VoiceLinkClient config = VoiceLinkClient.builder().authUrl(server.authUrl())
          .clock(time).scheduler(time).build();
      DeviceAuthorizer authorizer = DeviceAuthorizer.builder(config)
          .clientId(DefaultConsole.CLIENT_ID).build();
      DeviceCode code = authorizer.requestCode(DefaultConsole.DEVICE_ID).execute();
      secrets.add(code.deviceCode());
      DeviceAuthorizerTest.Events events = new DeviceAuthorizerTest.Events();
      int before = time.scheduledCount();
      authorizer.poll(code).enqueue(events);
      time.awaitScheduled(before + 1);
      server.faults().on(Endpoint.TOKEN, Fault.status(503).times(1));
      time.advance(2, TimeUnit.SECONDS);
      time.awaitScheduled(before + 3); // the first wait, the poll's deadline, the retry's wait
      new SimulatedTester(server).approve(code.userCode());
      time.advance(time.pendingDelaysMillis().get(0), TimeUnit.MILLISECONDS);
      DeviceFlowOutcome outcome = events.await();
      assertThat(outcome.kind()).isEqualTo(Kind.AUTHORIZED);
      TokenRecord first = outcome.token();
      secrets.add(first.accessToken());
      secrets.add(first.refreshToken());

      TokenManager manager = TokenManager.builder(config).deviceGrant(DefaultConsole.CLIENT_ID)
          .store(new FileTokenStore(new File(dir, "token.json"))).build();
      manager.setRecord(first);
      TokenRecord second = manager.refresh().execute();
      secrets.add(second.accessToken());
      secrets.add(second.refreshToken());
      TokenManager stale = TokenManager.builder(config).deviceGrant(DefaultConsole.CLIENT_ID)
          .store(new InMemoryTokenStore(first)).build();
      assertThatThrownBy(() -> stale.refresh().execute()).isInstanceOf(ReauthorizationRequiredException.class);
      manager.invalidate(second.accessToken());
      secrets.add(manager.accessToken());
      secrets.add(manager.record().refreshToken());

      TokenManager cloud = TokenManager.builder(config)
          .cloudGrant(DefaultConsole.CLIENT_ID, DefaultConsole.CLIENT_SECRET)
          .store(new InMemoryTokenStore()).build();
      secrets.add(cloud.accessToken());
      secrets.add(cloud.record().refreshToken());
      secrets.add(cloud.refresh().execute().accessToken());
      secrets.add(cloud.record().refreshToken());
    }

    assertThat(lines).isNotEmpty();
    assertThat(lines).anyMatch(line -> line.contains("‹secret "));
    for (String secret : secrets) {
      assertThat(secret).isNotEmpty();
      for (String line : lines) {
        assertThat(line).as("log line").doesNotContain(secret);
      }
    }
  }
}
