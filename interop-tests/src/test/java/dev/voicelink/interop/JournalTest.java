package dev.voicelink.interop;

import static dev.voicelink.interop.InteropAccounts.ALICE;
import static dev.voicelink.interop.InteropAccounts.BACKEND_POST;
import static dev.voicelink.interop.InteropAccounts.DEVICE_BASIC;
import static dev.voicelink.interop.InteropAccounts.DEVICE_POST;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The journal keeps what tests compare and prints no secret. */
@ExtendWith(SharedServer.class)
class JournalTest {

  @Test void printingTheJournalShowsNoSecret(StandardAuthServer server) {
    DeviceFlow.Codes codes = DeviceFlow.start(server, DEVICE_POST);
    Approver.approveAt(codes.verificationUriComplete(), ALICE);
    Map<String, Object> tokens = DeviceFlow.poll(server, DEVICE_POST, codes.deviceCode()).json();
    Map<String, Object> refreshed = DeviceFlow.refresh(server, DEVICE_POST, (String) tokens.get("refresh_token")).json();
    DeviceFlow.signIn(server, DEVICE_BASIC, ALICE);
    Wire.post(server.tokenEndpoint(), BACKEND_POST, "grant_type", "client_credentials");
    Wire.get(server.userInfoEndpoint(), "Authorization", "Bearer " + refreshed.get("access_token"));

    String printed = server.journal().toString();

    List<String> secrets = new ArrayList<>(List.of(DEVICE_POST.secret(), DEVICE_BASIC.secret(), BACKEND_POST.secret(),
        ALICE.password(), codes.deviceCode(), (String) tokens.get("access_token"), (String) tokens.get("refresh_token"),
        (String) refreshed.get("access_token"), (String) refreshed.get("refresh_token")));
    for (Exchange e : server.journal().all()) {
      if (e.parameters().containsKey("_csrf")) secrets.add(e.param("_csrf"));
    }
    assertThat(secrets).allSatisfy(secret -> assertThat(printed).doesNotContain(secret));
    assertThat(printed).contains("client_secret=[masked]", "password=[masked]", "device_code=[masked]",
        "refresh_token=[masked]", "\"access_token\":\"[masked]\"", "Authorization: Basic (client speaker-basic) [masked]",
        "Authorization: Bearer [masked]", "username=alice", "user_code=" + codes.userCode());
  }

  @Test void valuesAreKeptAsReceivedForComparison(StandardAuthServer server) {
    DeviceFlow.Codes codes = DeviceFlow.start(server, DEVICE_POST);
    DeviceFlow.poll(server, DEVICE_POST, codes.deviceCode());

    Exchange poll = server.journal().last(server.tokenEndpointPath());
    assertThat(poll.param("device_code")).isEqualTo(codes.deviceCode());
    assertThat(poll.param("client_secret")).isEqualTo(DEVICE_POST.secret());
    assertThat(poll.param("scope")).isNull();
    Exchange start = server.journal().last(server.deviceAuthorizationEndpointPath());
    assertThat(poll.sequence()).isGreaterThan(start.sequence());
    assertThat(poll.receivedNanos()).isGreaterThan(start.receivedNanos());
    assertThat(poll.toString()).startsWith("#" + poll.sequence() + " POST /oauth2/token {");
  }

  @Test void aRepeatedParameterIsNotTakenForOne(StandardAuthServer server) {
    Wire.post(server.deviceAuthorizationEndpoint(), DEVICE_POST, "scope", "profile", "scope", "profile");

    Exchange request = server.journal().last(server.deviceAuthorizationEndpointPath());
    assertThat(request.parameters().get("scope")).containsExactly("profile", "profile");
    assertThatThrownBy(() -> request.param("scope")).hasMessage("scope was sent 2 times");
    // the server refuses it
    assertThat(request.status()).isEqualTo(400);
    assertThat(request.responseJson()).containsEntry("error", "invalid_request");
  }
}
