package dev.voicelink.entity;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.voicelink.core.CapturedLog;
import dev.voicelink.core.FakeTransport;
import dev.voicelink.core.SecretScan;
import dev.voicelink.core.ServerRefusalException;
import dev.voicelink.core.VirtualTime;
import dev.voicelink.core.VoiceLinkClient;
import java.io.IOException;
import java.util.List;

/**
 * Fuzzes what the entity services answer: the web API envelope {@code {code, data, desc, sid}} of
 * upload-resource and check-resource (protocol 2.6, 4.8, 4.9) and the platform tools upload answer (4.7).
 * Each input runs the real signed call over an in-process transport. Property: a value or the documented
 * error (IOException, WebApiException, PlatformUploadException), never another exception, never the
 * account key or a token in a message or the log.
 *
 * <p>Input layout: first byte picks the HTTP status ({@link FakeTransport#STATUSES}), the rest is the
 * body.
 */
class WebApiResponseFuzzTest {
  private static final String ACCOUNT_KEY = "0f3c9e8a7b6d5c4e3f2a1b0c9d8e7f6a";
  private static final String USER_TOKEN = "AT-user-3e5a7c9e1b3d5f7a";

  private final FakeTransport transport = new FakeTransport();
  private final VirtualTime time = new VirtualTime();
  private final VoiceLinkClient config = VoiceLinkClient.builder()
      .baseUrl("https://api.example/")
      .platformUrl("https://platform.example/")
      .httpClient(transport.client())
      .clock(time)
      .scheduler(time)
      .build();
  private final EntityWebApi api = EntityWebApi.builder(config)
      .namespace("OS123").accountKey(ACCOUNT_KEY).build();
  private final PlatformToolsClient platform = PlatformToolsClient.builder(config)
      .userTokens(() -> USER_TOKEN).build();
  private final ResourceDefinition contacts = ResourceDefinition.builder()
      .name("OS123.contacts").mainField("name").secondaryFields("alias")
      .dimension(Dimension.USER).build();

  @FuzzTest
  void uploadAnswer(byte[] input) {
    valueOrDocumentedError(input, WebApiException.class,
        () -> api.uploadResource(UploadRequest.builder().appid("5f1a2b3c").definition(contacts)
            .persParam(PersParam.user("0123456789abcdef0123456789abcdef"))
            .records(RecordSource.fromText("{\"name\":\"Li Lei\",\"alias\":\"\"}")).build()).execute(),
        (receipt, secrets) -> {
          assertThat(receipt.sid()).isNotNull();
          SecretScan.assertNotIn(receipt.toString(), secrets, "UploadReceipt");
        });
  }

  @FuzzTest
  void checkAnswer(byte[] input) {
    valueOrDocumentedError(input, WebApiException.class, () -> api.checkResource("psn0001").execute(),
        (result, secrets) -> {
          assertThat(result.sid()).isNotNull();
          assertThat(result.processed()).isEqualTo(result.error() == 0);
          SecretScan.assertNotIn(result.toString(), secrets, "CheckResult");
        });
  }

  @FuzzTest
  void platformUploadAnswer(byte[] input) {
    valueOrDocumentedError(input, ServerRefusalException.class,
        () -> platform.uploadEntities(contacts,
            RecordSource.fromText("{\"name\":\"Li Lei\",\"alias\":\"\"}"), null).execute(),
        (sid, secrets) -> assertThat(sid).isNotNull());
  }

  private interface Call<T> {
    T execute() throws IOException, ServerRefusalException;
  }

  private interface ValueCheck<T> {
    void check(T value, List<String> secrets);
  }

  /**
   * Runs {@code call} against the answer {@code input}: a value that passes {@code check}, a refusal of
   * type {@code refusals}, or an IOException; no secret of the SDK's in any of them or in the log.
   */
  private <T> void valueOrDocumentedError(byte[] input, Class<? extends ServerRefusalException> refusals,
      Call<T> call, ValueCheck<T> check) {
    answer(input);
    CapturedLog log = CapturedLog.install();
    T value = null;
    Exception failure = null;
    try {
      value = call.execute();
    } catch (ServerRefusalException | IOException e) {
      failure = e;
    }
    List<String> secrets = SecretScan.ownSecrets(transport.lastRequest(),
        new String(FakeTransport.body(input), UTF_8), ACCOUNT_KEY, USER_TOKEN);
    if (failure == null) {
      check.check(value, secrets);
    } else {
      if (failure instanceof ServerRefusalException && !refusals.isInstance(failure)) {
        throw new AssertionError("only " + refusals.getSimpleName() + " refuses this call", failure);
      }
      if (failure instanceof WebApiException) {
        assertThat(((WebApiException) failure).code()).isNotEqualTo(Envelope.SUCCESS);
      }
      SecretScan.assertNotIn(failure, secrets);
    }
    SecretScan.assertNotIn(log.text(), secrets, "log");
  }

  private void answer(byte[] input) {
    transport.answer(FakeTransport.status(input), "application/json; charset=utf-8",
        FakeTransport.body(input));
  }
}
