package dev.voicelink.docs;

import dev.voicelink.auth.DeviceAuthorizer;
import dev.voicelink.auth.DeviceFlowOutcome;
import dev.voicelink.auth.FileTokenStore;
import dev.voicelink.auth.NotSignedInException;
import dev.voicelink.auth.TokenManager;
import dev.voicelink.core.VoiceLinkCall;
import dev.voicelink.core.VoiceLinkClient;
import java.io.File;
import java.io.IOException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import okhttp3.OkHttpClient;

/** The code of docs/device-authorization.md and docs/tokens.md; {@code AuthSnippetsTest} runs it. */
final class AuthSnippets {
  private AuthSnippets() {
  }

  interface Display {
    void show(String userCode, String link);
  }

  static VoiceLinkCall<DeviceFlowOutcome> deviceFlow(VoiceLinkClient client, Display display,
      TokenManager tokens, Executor storage, Executor mainThread) {
    // snippet:device-authorization-start
    DeviceAuthorizer authorizer = DeviceAuthorizer.builder(client).clientId("vl-speaker-01").build();

    VoiceLinkCall<DeviceFlowOutcome> flow = authorizer.authorize("SN-0001-DEMO",
        code -> display.show(code.userCode(), code.link())); // link = {verification_uri}?user_code=…
    flow.enqueue(result -> {                                // on the main thread on Android
      if (result.isCancelled()) return;                     // flow.cancel() was called
      DeviceFlowOutcome outcome = result.value();
      if (outcome.kind() != DeviceFlowOutcome.Kind.AUTHORIZED) {
        display.show("", "not signed in: " + outcome.kind()); // DENIED, EXPIRED or FAILED
        return;
      }
      storage.execute(() -> {                               // a background executor: the save is
        try {                                               // file (and Keystore) I/O
          tokens.setRecord(outcome.token());                // saved before it is used
        } catch (IOException e) {
          mainThread.execute(() -> display.show("", "could not save the sign-in: " + e.getMessage()));
        }
      });
    });
    // the user walks away: flow.cancel();
    // end-snippet
    return flow;
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
        app.signIn();                                       // never signed in, or cleared
      }
    });
    // call.cancel() releases the callback; a refresh already sent still completes and is saved
    // end-snippet
    return call;
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
