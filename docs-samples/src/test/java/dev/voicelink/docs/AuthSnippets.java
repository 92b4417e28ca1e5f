package dev.voicelink.docs;

import dev.voicelink.auth.DeviceAuthorizer;
import dev.voicelink.auth.DeviceCode;
import dev.voicelink.auth.DeviceFlow;
import dev.voicelink.auth.DeviceFlowListener;
import dev.voicelink.auth.DeviceFlowOutcome;
import dev.voicelink.auth.FileTokenStore;
import dev.voicelink.auth.TokenManager;
import dev.voicelink.core.VoiceLinkConfig;
import java.io.File;
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

  static DeviceFlow deviceFlow(String authUrl, Display display, TokenManager tokens,
      Executor uiExecutor) {
    // snippet:device-authorization-start
    VoiceLinkConfig config = VoiceLinkConfig.builder().authUrl(authUrl).build();
    DeviceAuthorizer authorizer = DeviceAuthorizer.builder(config).clientId("vl-speaker-01").build();

    DeviceFlow flow = authorizer.start("SN-0001-DEMO", new DeviceFlowListener() {
      @Override public void onCodeIssued(DeviceCode code) {
        display.show(code.userCode(), code.link()); // link = {verification_uri}?user_code=<code>
      }

      @Override public void onOutcome(DeviceFlowOutcome outcome) {
        if (outcome.kind() == DeviceFlowOutcome.Kind.AUTHORIZED) {
          try {
            tokens.setRecord(outcome.token()); // saved before it is used
          } catch (java.io.IOException e) {
            display.show("", "could not save the sign-in: " + e.getMessage());
          }
        }
      }
    }, uiExecutor);
    // the user walks away: flow.cancel();
    // end-snippet
    return flow;
  }

  static DeviceAuthorizer intervalInMilliseconds(VoiceLinkConfig config) {
    // snippet:device-authorization-interval-unit
    DeviceAuthorizer authorizer = DeviceAuthorizer.builder(config)
        .clientId("vl-speaker-01")
        .intervalUnit(TimeUnit.MILLISECONDS) // this platform writes "interval": 2000 for 2 s
        .build();
    // end-snippet
    return authorizer;
  }

  static TokenManager tokens(VoiceLinkConfig config, File tokenFile) {
    // snippet:tokens-manager
    TokenManager tokens = TokenManager.builder(config)
        .deviceGrant("vl-speaker-01")                       // or .cloudGrant(clientId, clientSecret)
        .store(new FileTokenStore(tokenFile))               // survives reboots; owner-only file
        .build();
    // end-snippet
    return tokens;
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
