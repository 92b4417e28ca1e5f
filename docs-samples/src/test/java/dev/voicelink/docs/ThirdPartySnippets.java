package dev.voicelink.docs;

import dev.voicelink.auth.DeviceFlowOutcome;
import dev.voicelink.auth.FileTokenStore;
import dev.voicelink.auth.InMemoryTokenStore;
import dev.voicelink.auth.OAuthServer;
import dev.voicelink.auth.TokenManager;
import dev.voicelink.core.VoiceLinkCall;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.entity.AuthId;
import dev.voicelink.entity.PersParam;
import java.io.File;

/** The code of docs/third-party-accounts.md; {@code ThirdPartySnippetsTest} runs it. */
final class ThirdPartySnippets {
  private ThirdPartySnippets() {
  }

  static OAuthServer discover(VoiceLinkClient client, String issuer) throws Exception {
    // snippet:third-party-discover
    // issuer: for example "https://login.example.com/realms/speakers"
    OAuthServer server = OAuthServer.discover(client, issuer).execute();
    // end-snippet
    return server;
  }

  static OAuthServer explicit(String base) {
    // snippet:third-party-explicit
    OAuthServer server = OAuthServer.builder()
        .deviceAuthorizationEndpoint(base + "/oauth2/device_authorization")
        .tokenEndpoint(base + "/oauth2/token")
        .build();
    // end-snippet
    return server;
  }

  static OAuthServer registeredForPost(OAuthServer discovered) {
    // snippet:third-party-client-authentication
    // the client is registered for client_secret_post; the server also offers Basic
    OAuthServer server = discovered.newBuilder()
        .clientAuthentication(OAuthServer.ClientAuthentication.CLIENT_SECRET_POST)
        .build();
    // end-snippet
    return server;
  }

  static VoiceLinkCall<DeviceFlowOutcome> signIn(VoiceLinkClient client, OAuthServer server,
      AuthSnippets.Display display, File tokenFile) {
    // snippet:third-party-sign-in
    TokenManager tokens = TokenManager.builder(client, server)
        .deviceGrant("speaker-public")                       // or deviceGrant(clientId, clientSecret)
        .scope("profile voicelink.entities")                 // optional: else the server decides
        .store(new FileTokenStore(tokenFile))
        .build();

    VoiceLinkCall<DeviceFlowOutcome> signIn = tokens.signIn(  // no device_id in this dialect
        code -> display.show(code.userCode(), code.link())); // link: verification_uri_complete
    signIn.enqueue(result -> {                              // on the main thread on Android
      if (result.isCancelled()) return;                     // signIn.cancel() was called
      DeviceFlowOutcome outcome = result.isSuccess() ? result.value() : null;
      display.show("", outcome != null && outcome.kind() == DeviceFlowOutcome.Kind.AUTHORIZED
          ? "signed in"                                     // saved, with its dialect and endpoints
          : "not signed in: " + (outcome != null ? outcome.kind() : result.failure().getMessage()));
    });
    // end-snippet
    return signIn;
  }

  static TokenManager afterReboot(VoiceLinkClient client, File tokenFile) {
    // snippet:third-party-after-reboot
    TokenManager tokens = TokenManager.builder(client)     // no server, no auth_url needed
        .store(new FileTokenStore(tokenFile))               // the record says where to refresh
        .build();
    // end-snippet
    return tokens;
  }

  static TokenManager backend(VoiceLinkClient client, OAuthServer server, String secret) {
    // snippet:third-party-client-credentials
    TokenManager backend = TokenManager.builder(client, server)
        .cloudGrant("backend", secret)   // Basic; post if the server offers only post or is built for it
        .scope("voicelink.entities")
        .store(new InMemoryTokenStore())
        .build();
    // end-snippet
    return backend;
  }

  static PersParam signedInUser(VoiceLinkClient client, OAuthServer server, TokenManager tokens)
      throws Exception {
    // snippet:third-party-subject
    String subject = server.subject(client, tokens).execute(); // "sub" from the userinfo endpoint
    String authId = AuthId.fromThirdPartyIdentity(server.issuer(), subject); // server: discovered
    PersParam owner = PersParam.user(authId);                   // the user's dynamic entities
    // end-snippet
    return owner;
  }
}
