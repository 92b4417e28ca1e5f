package dev.voicelink.docs;

import dev.voicelink.auth.DeviceAuthorizer;
import dev.voicelink.auth.DeviceFlowOutcome;
import dev.voicelink.auth.FileTokenStore;
import dev.voicelink.auth.NotSignedInException;
import dev.voicelink.auth.TokenManager;
import dev.voicelink.core.VoiceLinkCall;
import dev.voicelink.core.VoiceLinkClient;
import java.io.File;
import java.util.concurrent.TimeUnit;
import okhttp3.OkHttpClient;

/** The code of docs/device-authorization.md and docs/tokens.md; {@code AuthSnippetsTest} runs it. */
final class AuthSnippets {
  private AuthSnippets() {
  }

  interface Display {
    void show(String userCode, String link);
  }

  static VoiceLinkCall<DeviceFlowOutcome> deviceFlow(TokenManager tokens, Display display) {
    // snippet:device-authorization-start
    VoiceLinkCall<DeviceFlowOutcome> signIn = tokens.signIn("SN-0001-DEMO",
        code -> display.show(code.userCode(), code.link())); // link = {verification_uri}?user_code=…
    signIn.enqueue(result -> {                              // on the main thread on Android
      if (result.isCancelled()) return;                     // signIn.cancel() was called
      if (!result.isSuccess()) {                            // the sign-in could not be saved
        display.show("", "sign-in failed: " + result.failure().getMessage());
        return;
      }
      DeviceFlowOutcome outcome = result.value();
      if (outcome.kind() != DeviceFlowOutcome.Kind.AUTHORIZED) {
        display.show("", "not signed in: " + outcome.kind()); // DENIED, EXPIRED or FAILED
        return;
      }
      display.show("", "signed in");                        // saved: tokens.accessToken() serves it
    });
    // the user walks away: signIn.cancel();
    // end-snippet
    return signIn;
  }

  static DeviceAuthorizer intervalInMilliseconds(VoiceLinkClient client) {
    // snippet:device-authorization-interval-unit
    DeviceAuthorizer authorizer = DeviceAuthorizer.builder(client)
        .clientId("vl-speaker-01")
        .intervalUnit(TimeUnit.MILLISECONDS) // this platform writes "interval": 2000 for 2 s
        .build();
    // end-snippet
    return authorizer;
  }

  static TokenManager tokens(VoiceLinkClient client, File tokenFile) {
    // snippet:tokens-manager
    TokenManager tokens = TokenManager.builder(client)
        .deviceGrant("vl-speaker-01")                       // or .cloudGrant(clientId, clientSecret)
        .store(new FileTokenStore(tokenFile))               // survives reboots; owner-only file
        .build();
    // end-snippet
    return tokens;
  }

  interface App {
    void useToken(String accessToken);

    void signIn();
  }

  static VoiceLinkCall<String> tokenCall(TokenManager tokens, App app) {
    // snippet:tokens-async
    VoiceLinkCall<String> call = tokens.accessTokenCall();  // refreshes first when due
    call.enqueue(result -> {
      if (result.isSuccess()) {
        app.useToken(result.value());
      } else if (result.failure() instanceof NotSignedInException) {
        app.signIn();                                       // never signed in, or signed out
      }
    });
    // call.cancel() releases the callback; a refresh already sent still completes and is saved
    // end-snippet
    return call;
  }

  interface Screen {
    void showSignedIn();

    void showSignIn(String why);
  }

  static void followState(TokenManager tokens, Screen screen) {
    // snippet:tokens-state
    tokens.addListener(change -> {                          // on the main thread on Android
      switch (change.state()) {
        case VALID:
          screen.showSignedIn();
          break;
        case NO_TOKEN:                                      // never signed in, or signed out
        case REAUTHORIZATION_REQUIRED:                      // refresh token refused, record lost
          screen.showSignIn(change.cause() + (change.failure() == null ? ""
              : ": " + change.failure().getMessage()));     // no secret in it
          break;
        default:                                            // LOADING, REFRESHING, EXPIRED
          break;
      }
    });
    // end-snippet
  }

  static VoiceLinkCall<TokenManager.SignOut> signOut(TokenManager tokens, Display display) {
    // snippet:tokens-sign-out
    VoiceLinkCall<TokenManager.SignOut> signOut = tokens.signOut(); // forgotten here at once
    signOut.enqueue(result -> {                             // on the main thread on Android
      // REVOKED, NOT_OFFERED (the platform has no revocation) or REVOCATION_FAILED: signed out
      // here whichever it is; a failure means the stored record could not be deleted
      display.show("", result.isSuccess() ? "signed out" : "sign-out: " + result.failure());
    });
    // end-snippet
    return signOut;
  }

  static OkHttpClient okHttp(OkHttpClient app, TokenManager tokens) {
    // snippet:tokens-okhttp
    OkHttpClient client = app.newBuilder()
        .addInterceptor(tokens.interceptor())     // Authorization: <access token>
        .authenticator(tokens.authenticator())    // a 401 on the current token: refresh, retry once
        .build();
    // end-snippet
    return client;
  }
}
