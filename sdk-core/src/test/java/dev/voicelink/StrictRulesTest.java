package dev.voicelink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voicelink.auth.DeviceAuthorizer;
import dev.voicelink.auth.DeviceFlowListener;
import dev.voicelink.auth.DeviceFlowOutcome;
import dev.voicelink.auth.InMemoryTokenStore;
import dev.voicelink.auth.TokenManager;
import dev.voicelink.core.VirtualTime;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.entity.Dimension;
import dev.voicelink.entity.EntityWebApi;
import dev.voicelink.entity.InvalidResourceException;
import dev.voicelink.entity.IpNotWhitelistedException;
import dev.voicelink.entity.PersParam;
import dev.voicelink.entity.PlatformToolsClient;
import dev.voicelink.entity.PlatformUploadException;
import dev.voicelink.entity.RecordSource;
import dev.voicelink.entity.ResourceDefinition;
import dev.voicelink.entity.UploadRequest;
import dev.voicelink.entity.WebApiException;
import dev.voicelink.testing.Console;
import dev.voicelink.testing.Account;
import dev.voicelink.testing.DefaultConsole;
import dev.voicelink.testing.PlatformVariant;
import dev.voicelink.testing.ReferenceServer;
import dev.voicelink.testing.ServerClock;
import java.util.Collections;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Tolerance stops where the spec is explicit. Against a server that answers in every variant at
 * once, a 20004 is still the IP-whitelist error, a real refusal is still a typed refusal carrying
 * the server's code, description and sid, a malformed answer still fails, and invalid input is still
 * refused before anything is sent.
 */
class StrictRulesTest {
  private static final long START = 1_763_712_000_000L;
  private static final String AUTH_ID = "d41d8cd98f00b204e9800998ecf8427e";

  private final VirtualTime time = new VirtualTime(START);
  private final ResourceDefinition contacts = ResourceDefinition.builder()
      .name(DefaultConsole.CONTACTS).mainField("name").secondaryFields("alias")
      .dimension(Dimension.USER).build();
  private ReferenceServer server;
  private VoiceLinkClient config;

  @BeforeEach void start() throws Exception {
    Console console = Console.defaults();
    for (PlatformVariant variant : PlatformVariant.values()) {
      // one status of authorization errors can be on
      if (variant != PlatformVariant.AUTH_ERRORS_HTTP_401 && variant != PlatformVariant.AUTH_ERRORS_HTTP_503) {
        console.setVariant(variant, true);
      }
    }
    server = ReferenceServer.builder().console(console).clock(ServerClock.manual(START)).build()
        .start();
    config = VoiceLinkClient.builder().authUrl(server.authUrl()).platformUrl(server.platformUrl())
        .baseUrl(server.baseUrl()).clock(time).scheduler(time).build();
  }

  @AfterEach void stop() throws Exception {
    config.close();
    server.close();
  }

  private EntityWebApi api(String accountKey) {
    return EntityWebApi.builder(config).namespace(DefaultConsole.NAMESPACE).accountKey(accountKey)
        .build();
  }

  private UploadRequest upload(String records) {
    return UploadRequest.builder().appid(DefaultConsole.APPID).definition(contacts)
        .persParam(PersParam.user(AUTH_ID)).records(RecordSource.fromText(records)).build();
  }

  @Test void code20004IsStillTheIpWhitelistError() {
    server.console().putAccount(Account.create(DefaultConsole.NAMESPACE,
        DefaultConsole.ACCOUNT_KEY, DefaultConsole.APPID)
        .withIpWhitelist(true, Collections.singletonList("203.0.113.7")));

    assertThatThrownBy(() -> api(DefaultConsole.ACCOUNT_KEY)
        .uploadResource(upload("{\"name\":\"a\",\"alias\":\"\"}")).execute())
        .isExactlyInstanceOf(IpNotWhitelistedException.class)
        .satisfies(e -> assertThat(((IpNotWhitelistedException) e).code()).isEqualTo("20004"));
  }

  @Test void aRealRefusalIsStillATypedRefusal() {
    assertThatThrownBy(() -> api("ffffffffffffffffffffffffffffffff")
        .uploadResource(upload("{\"name\":\"a\",\"alias\":\"\"}")).execute())
        .isExactlyInstanceOf(WebApiException.class)
        .satisfies(e -> {
          WebApiException refusal = (WebApiException) e;
          assertThat(refusal.code()).isEqualTo("10105");
          assertThat(refusal.description()).startsWith("illegal access: X-CheckSum does not match");
          assertThat(refusal.sid()).startsWith("vls");
        });
    assertThatThrownBy(() -> api(DefaultConsole.ACCOUNT_KEY).checkResource("psn000000").execute())
        .isExactlyInstanceOf(WebApiException.class)
        .hasMessageStartingWith("31405: no upload with sid psn000000");
  }

  @Test void aPlatformUploadRefusalIsStillTyped() throws Exception {
    TokenManager cloud = TokenManager.builder(config)
        .cloudGrant(DefaultConsole.CLIENT_ID, DefaultConsole.CLIENT_SECRET)
        .store(new InMemoryTokenStore()).build();
    PlatformToolsClient tools = PlatformToolsClient.builder(config).userTokens(cloud).build();

    assertThatThrownBy(() -> tools.uploadEntities(contacts,
        RecordSource.fromText("{\"name\":\"a\",\"alias\":\"\"}"), null).execute())
        .isExactlyInstanceOf(PlatformUploadException.class)
        .satisfies(e -> {
          PlatformUploadException refusal = (PlatformUploadException) e;
          assertThat(refusal.httpStatus()).isEqualTo(400);
          assertThat(refusal.code()).isEqualTo("40301");
          assertThat(refusal.sid()).startsWith("ptu");
        });
  }

  @Test void anAuthorizationRefusalIsStillARefusalWhateverItsStatus() throws Exception {
    DeviceAuthorizer stranger = DeviceAuthorizer.builder(config).clientId("nobody").build();
    BlockingQueue<DeviceFlowOutcome> outcome = new LinkedBlockingQueue<>();
    stranger.authorize(DefaultConsole.DEVICE_ID, code -> { })
        .enqueue(result -> outcome.add(result.value()));

    DeviceFlowOutcome failed = outcome.poll(10, TimeUnit.SECONDS);
    assertThat(failed.kind()).isEqualTo(DeviceFlowOutcome.Kind.FAILED);
    assertThat(failed.failure()).hasMessage("invalid_client: unknown client_id: nobody");
    assertThat(server.journal().calls("/oauth/ivs/device_code")).hasSize(1)
        .allSatisfy(call -> assertThat(call.responseStatus()).isEqualTo(200));
  }

  @Test void invalidInputIsStillRefusedBeforeSending() {
    assertThatThrownBy(() -> api(DefaultConsole.ACCOUNT_KEY)
        .uploadResource(upload("{\"name\":\"a\"}")).execute())
        .isInstanceOf(InvalidResourceException.class)
        .hasMessage("record 1 of OS123.contacts lacks the field alias; every record needs name"
            + " (non-empty) and alias");
    assertThatThrownBy(() -> api(DefaultConsole.ACCOUNT_KEY).uploadResource(DefaultConsole.APPID,
        contacts.name(), PersParam.user(AUTH_ID), RecordSource.fromText("\"a\"")).execute())
        .isInstanceOf(InvalidResourceException.class)
        .hasMessage("record 1 of OS123.contacts must be a JSON object; was STRING");
    assertThat(server.journal().snapshot()).isEmpty();
  }
}
