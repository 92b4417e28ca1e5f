package dev.voicelink.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voicelink.auth.DeviceFlowListener;
import dev.voicelink.auth.DeviceFlowOutcome;
import dev.voicelink.auth.InMemoryTokenStore;
import dev.voicelink.auth.TokenManager;
import dev.voicelink.auth.TokenRecord;
import dev.voicelink.auth.TokenSource;
import dev.voicelink.core.VoiceLinkCall;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.entity.UploadReceipt;
import dev.voicelink.entity.WebApiException;
import dev.voicelink.fixtures.FakeCall;
import dev.voicelink.fixtures.FakeSignIn;
import dev.voicelink.fixtures.FakeTokenSource;
import dev.voicelink.fixtures.RecordingTokenStore;
import dev.voicelink.fixtures.VoiceLinkFixtures;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The code of docs/testing-your-app.md that runs on the JVM: small classes of an app, each reaching
 * the SDK through a seam of its own, and their tests with the fakes of voicelink-fixtures. The page's
 * Agent part runs with Robolectric in sdk-fixtures ({@code AgentTestingSnippetsTest}).
 */
class TestingSnippetsTest {
  private static final TokenRecord TOKEN = TokenRecord.builder().grant(TokenRecord.Grant.DEVICE)
      .clientId("vl-speaker-01").accessToken("at-1").refreshToken("rt-1").expiresInSeconds(3600)
      .receivedAtEpochMillis(System.currentTimeMillis()).build();

  // snippet:testing-sign-in-app
  /** The app's sign-in screen; {@code agent::signIn} in the app, a fake in its test. */
  static final class SignInScreen {
    interface SignIn {
      VoiceLinkCall<DeviceFlowOutcome> signIn(DeviceFlowListener listener);
    }

    private final SignIn signIn;
    private VoiceLinkCall<DeviceFlowOutcome> flow;
    String shown = "";

    SignInScreen(SignIn signIn) {
      this.signIn = signIn;
    }

    void onSignInClicked() {
      flow = signIn.signIn(code -> shown = "Open " + code.link());
      flow.enqueue(result -> {
        if (result.isSuccess()) shown = "Signed in: " + result.value().kind();
      });
    }

    void onLeave() {
      flow.cancel();
    }
  }
  // end-snippet

  @Test void aSignInPlayedStepByStep() {
    // snippet:testing-sign-in
    FakeSignIn signIn = new FakeSignIn();
    SignInScreen screen = new SignInScreen(signIn::signIn);

    screen.onSignInClicked();
    FakeSignIn.Flow flow = signIn.lastFlow();
    flow.issueCode(VoiceLinkFixtures.deviceCode("https://auth.example.com/verify", "WDJB-MJHT", 5,
        600, "device-code"));
    assertThat(screen.shown).isEqualTo("Open https://auth.example.com/verify?user_code=WDJB-MJHT");
    flow.poll("authorization_pending");
    flow.authorize(token);                 // or flow.end(VoiceLinkFixtures.ended(Kind.DENIED, refusal))
    assertThat(screen.shown).isEqualTo("Signed in: AUTHORIZED");

    screen.onSignInClicked();
    screen.onLeave();
    assertThat(signIn.lastFlow().isCancelled()).isTrue();
    // end-snippet
  }

  private final TokenRecord token = TOKEN;

  /** The app's client of its own backend, which shows the device's token. */
  // snippet:testing-token-source-app
  static final class Backend {
    interface Server {
      int post(String token);                          // the HTTP status
    }

    private final TokenSource tokens;                  // the TokenManager, in the app

    Backend(TokenSource tokens) {
      this.tokens = tokens;
    }

    int post(Server server) throws Exception {         // on a background thread, in the app
      String token = tokens.accessToken();
      int status = server.post(token);
      if (status == 401) {                             // once: the source refreshes
        tokens.invalidate(token);
        status = server.post(tokens.accessToken());
      }
      return status;
    }
  }
  // end-snippet

  @Test void aTokenSourceOfGivenTokens() throws Exception {
    // snippet:testing-token-source
    FakeTokenSource tokens = FakeTokenSource.of("at-1", "at-2");   // at-2 once at-1 is invalidated
    Backend backend = new Backend(tokens);

    int status = backend.post(token -> token.equals("at-2") ? 200 : 401);

    assertThat(status).isEqualTo(200);
    assertThat(tokens.invalidated()).containsExactly("at-1");
    assertThat(tokens.requestCount()).isEqualTo(2);
    // end-snippet
    // snippet:testing-token-source-failing
    FakeTokenSource offline = FakeTokenSource.failing(new IOException("no network"));
    // end-snippet
    assertThatThrownBy(() -> new Backend(offline).post(token -> 200)).hasMessage("no network");
  }

  // snippet:testing-calls-app
  /** The app's upload of a contact list; {@code () -> api.uploadResource(request)} in the app. */
  static final class ContactsUpload {
    interface Uploads {
      VoiceLinkCall<UploadReceipt> upload();
    }

    private final Uploads uploads;
    private VoiceLinkCall<UploadReceipt> call;
    String status = "";

    ContactsUpload(Uploads uploads) {
      this.uploads = uploads;
    }

    void start() {
      status = "uploading";
      call = uploads.upload();
      call.enqueue(result -> {
        if (result.isSuccess()) status = "uploaded as " + result.value().sid();
        else if (result.isFailure()) status = "failed: " + result.failure().getMessage();
      });
    }

    void stop() {
      call.cancel();
    }
  }
  // end-snippet

  @Test void callsTheTestEnds() {
    // snippet:testing-calls
    FakeCall<UploadReceipt> upload = FakeCall.create();
    ContactsUpload contacts = new ContactsUpload(() -> upload);

    contacts.start();
    assertThat(upload.isEnqueued()).isTrue();       // not execute(): never block the main thread
    assertThat(contacts.status).isEqualTo("uploading");
    upload.succeed(VoiceLinkFixtures.uploadReceipt("psn0001", System.currentTimeMillis()));
    assertThat(contacts.status).isEqualTo("uploaded as psn0001");

    FakeCall<UploadReceipt> refused = FakeCall.create();
    ContactsUpload failing = new ContactsUpload(() -> refused);
    failing.start();
    refused.fail(new WebApiException("20004", "IP not in whitelist", "psn0002"));
    assertThat(failing.status).isEqualTo("failed: 20004: IP not in whitelist (sid psn0002)");

    FakeCall<UploadReceipt> left = FakeCall.create();
    ContactsUpload leaving = new ContactsUpload(() -> left);
    leaving.start();
    leaving.stop();
    assertThat(left.isCancelled()).isTrue();        // and a late answer is dropped:
    assertThat(left.succeed(VoiceLinkFixtures.uploadReceipt("psn0003", 0))).isFalse();
    // end-snippet
    // snippet:testing-calls-finished
    ContactsUpload done = new ContactsUpload(() -> VoiceLinkFixtures.succeeded(
        VoiceLinkFixtures.uploadReceipt("psn0004", System.currentTimeMillis())));
    done.start();                                   // a finished call calls back at once
    assertThat(done.status).isEqualTo("uploaded as psn0004");
    // end-snippet
  }

  @Test void storeCallsStayOffTheCallingThread() throws Exception {
    try (VoiceLinkClient client = VoiceLinkClient.builder().authUrl("https://auth.example.com/")
        .callbackExecutor(Runnable::run).build()) {
      // snippet:testing-store-threads
      RecordingTokenStore store = new RecordingTokenStore(new InMemoryTokenStore());
      TokenManager tokens = TokenManager.builder(client).deviceGrant("vl-speaker-01").store(store)
          .build();
      tokens.setRecord(token);                    // the app's code, on the main thread
      tokens.signOut().execute();                 // the test waits; the app would enqueue
      assertThat(store.calls()).extracting(RecordingTokenStore.Call::thread)
          .isNotEmpty().doesNotContain(Thread.currentThread());
      // end-snippet
      List<RecordingTokenStore.Call> calls = store.calls();
      assertThat(calls.get(calls.size() - 1).operation()).isEqualTo(RecordingTokenStore.Operation.CLEAR);
    }
  }
}
