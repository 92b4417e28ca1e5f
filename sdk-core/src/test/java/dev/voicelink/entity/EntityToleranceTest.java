package dev.voicelink.entity;

import static dev.voicelink.entity.EntityWebApiTest.AUTH_ID;
import static dev.voicelink.entity.EntityWebApiTest.KEY;
import static dev.voicelink.entity.EntityWebApiTest.TEXT;
import static dev.voicelink.entity.EntityWebApiTest.envelope;
import static dev.voicelink.entity.WireAssertions.form;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voicelink.auth.TokenSource;
import dev.voicelink.core.LogCapture;
import dev.voicelink.core.VirtualTime;
import dev.voicelink.core.VoiceLinkClient;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the entity endpoints may answer where the spec leaves the detail open (the web API's success
 * code, where 4.8's fields sit in the envelope, the body of an upload_entities 200, a 401 from
 * upload_entities), the namespace rule the spec does not make, and the strict rules that stay
 * strict. See docs/platform-assumptions.md.
 */
class EntityToleranceTest {
  private final MockWebServer server = new MockWebServer();
  private final VirtualTime time = new VirtualTime();
  private final ResourceDefinition contacts = ResourceDefinition.builder()
      .name("OS123.contacts").mainField("name").secondaryFields("alias")
      .dimension(Dimension.USER).build();
  private VoiceLinkClient config;
  private EntityWebApi api;
  private LogCapture log;

  @BeforeEach void setUp() throws IOException {
    server.start();
    config = VoiceLinkClient.builder().baseUrl(server.url("/").toString())
        .platformUrl(server.url("/p").toString()).clock(time).scheduler(time).build();
    api = EntityWebApi.builder(config).namespace("OS123").accountKey(KEY).random(new Random(7))
        .build();
    log = LogCapture.install();
  }

  @AfterEach void tearDown() throws IOException {
    log.close();
    config.close();
    server.shutdown();
  }

  private UploadRequest request(ResourceDefinition definition) {
    return UploadRequest.builder().appid("5f1a2b3c").definition(definition)
        .persParam(PersParam.user(AUTH_ID)).records(RecordSource.fromText(TEXT)).build();
  }

  private void enqueue(MockResponse... responses) {
    for (MockResponse response : responses) server.enqueue(response);
  }

  private static MockResponse body(int status, String json) {
    return new MockResponse().setResponseCode(status).setHeader("Content-Type", "application/json")
        .setBody(json);
  }

  // The web API's success code (protocol 2.6, 7.2.3: not shown)

  @Test void successCodeZeroAsTextIsSuccess() throws Exception {
    enqueue(envelope("0", "success", "wapi1", "{\"sid\":\"psn1\",\"csid\":\"c1\"}"),
        envelope("0", "success", "wapi2", "{\"sid\":\"psn1\",\"csid\":\"c2\",\"reply\":\"ok\","
            + "\"error\":0}"));

    assertThat(api.uploadResource(request(contacts)).execute().sid()).isEqualTo("psn1");
    assertThat(api.checkResource("psn1").execute().processed()).isTrue();
    assertThat(log.warnings()).containsExactly("WARN entity the web API answered success with code 0:"
        + " read as success, like 00000 (docs/platform-assumptions.md)");
  }

  @Test void successCodeZeroAsANumberIsSuccess() throws Exception {
    enqueue(body(200, "{\"code\":0,\"data\":{\"sid\":\"psn1\",\"csid\":\"c1\"},"
        + "\"desc\":\"success\",\"sid\":\"wapi1\"}"));

    assertThat(api.uploadResource(request(contacts)).execute().sid()).isEqualTo("psn1");
  }

  @Test void everyOtherCodeStaysATypedRefusal() throws Exception {
    enqueue(body(200, "{\"code\":20004,\"data\":null,\"desc\":\"illegal ip\","
        + "\"sid\":\"wapi1\"}"),
        envelope("1", "failed", "wapi2", null),
        envelope("00", "failed", "wapi3", null),
        body(200, "{\"code\":10105,\"data\":null,\"desc\":\"no permission\",\"sid\":\"wapi4\"}"));

    assertThatThrownBy(() -> api.checkResource("psn1").execute())
        .isExactlyInstanceOf(IpNotWhitelistedException.class)
        .hasMessage("IP not in whitelist: this device's public IP address is not on the account's"
            + " IP whitelist; add it to the whitelist in the console or turn the whitelist off"
            + " (20004: illegal ip (sid wapi1))");
    assertThatThrownBy(() -> api.checkResource("psn1").execute())
        .isExactlyInstanceOf(WebApiException.class).hasMessage("1: failed (sid wapi2)");
    assertThatThrownBy(() -> api.checkResource("psn1").execute())
        .isExactlyInstanceOf(WebApiException.class).hasMessage("00: failed (sid wapi3)");
    assertThatThrownBy(() -> api.checkResource("psn1").execute())
        .isExactlyInstanceOf(WebApiException.class).hasMessage("10105: no permission (sid wapi4)");
  }

  @Test void successStillNeedsTheExpectedData() throws Exception {
    enqueue(envelope("0", "success", "wapi1", "null"),
        envelope("0", "success", "wapi2", "{\"csid\":\"c1\"}"));

    assertThatThrownBy(() -> api.uploadResource(request(contacts)).execute()).isInstanceOf(IOException.class)
        .hasMessage("malformed upload-resource response: data must be an object (sid wapi1)");
    assertThatThrownBy(() -> api.uploadResource(request(contacts)).execute()).isInstanceOf(IOException.class)
        .hasMessage("malformed upload-resource response: data.sid is missing (sid wapi2)");
  }

  // Where 4.8's sid and csid sit in the envelope (protocol 4.8: not shown)

  @Test void csidMayBeTheEnvelopesSid() throws Exception {
    enqueue(envelope("00000", "success", "wapi1", "{\"sid\":\"psn1\"}"),
        envelope("00000", "success", "wapi2", "{\"sid\":\"psn1\",\"reply\":\"ok\",\"error\":0}"));

    UploadReceipt receipt = api.uploadResource(request(contacts)).execute();
    assertThat(receipt.sid()).isEqualTo("psn1");
    assertThat(receipt.csid()).isEqualTo("wapi1");
    assertThat(api.checkResource("psn1").execute().csid()).isEqualTo("wapi2");
    assertThat(log.warnings()).containsExactly("WARN entity the web API answer has no data.csid: the"
        + " envelope's sid, which also identifies the call, is read as csid"
        + " (docs/platform-assumptions.md)");
  }

  @Test void theFieldsMaySitAtTheTopOfTheEnvelope() throws Exception {
    enqueue(body(200, "{\"code\":\"00000\",\"data\":null,\"desc\":\"success\",\"sid\":\"psn1\","
        + "\"csid\":\"c1\"}"),
        body(200, "{\"code\":\"00000\",\"data\":null,\"desc\":\"success\",\"sid\":\"psn1\","
            + "\"csid\":\"c2\",\"reply\":\"ok\",\"error\":0}"));

    UploadReceipt receipt = api.uploadResource(request(contacts)).execute();
    assertThat(receipt.sid()).isEqualTo("psn1");
    assertThat(receipt.csid()).isEqualTo("c1");
    CheckResult checked = api.checkResource("psn1").execute();
    assertThat(checked.sid()).isEqualTo("psn1");
    assertThat(checked.csid()).isEqualTo("c2");
    assertThat(checked.reply()).isEqualTo("ok");
    assertThat(checked.processed()).isTrue();
    assertThat(log.warnings()).containsExactly(
        "WARN entity the web API answer has no data.sid: the envelope's sid, which begins with psn"
            + " like an upload's, is read as the upload's sid (docs/platform-assumptions.md)",
        "WARN entity the web API answer has no data.csid: its top-level csid is read"
            + " (docs/platform-assumptions.md)",
        "WARN entity the web API answer has no data.reply: its top-level reply is read"
            + " (docs/platform-assumptions.md)",
        "WARN entity the web API answer has no data.error: its top-level error is read"
            + " (docs/platform-assumptions.md)");
  }

  @Test void theTopOfTheEnvelopeIsReadOnlyForWhatDataLacks() throws Exception {
    enqueue(body(200, "{\"code\":\"00000\",\"data\":{\"sid\":\"psn1\",\"csid\":\"c1\"},"
        + "\"desc\":\"success\",\"sid\":\"psn9\",\"csid\":\"c9\"}"),
        // Without data.sid, an envelope sid that is not an upload's is the call's only.
        body(200, "{\"code\":\"00000\",\"data\":null,\"desc\":\"success\",\"sid\":\"wapi3\","
            + "\"csid\":\"c3\"}"),
        body(200, "{\"code\":\"00000\",\"data\":{\"sid\":\"psn1\"},\"desc\":\"success\","
            + "\"sid\":\"psn1\",\"csid\":\"c4\",\"reply\":\"ok\",\"error\":\"0\"}"));

    UploadReceipt receipt = api.uploadResource(request(contacts)).execute();
    assertThat(receipt.sid()).isEqualTo("psn1");
    assertThat(receipt.csid()).isEqualTo("c1");
    assertThat(log.warnings()).isEmpty();
    assertThatThrownBy(() -> api.uploadResource(request(contacts)).execute()).isInstanceOf(IOException.class)
        .hasMessage("malformed upload-resource response: data must be an object (sid wapi3)");
    // Read from the top, a field keeps its type.
    assertThatThrownBy(() -> api.checkResource("psn1").execute()).isInstanceOf(IOException.class)
        .hasMessage("malformed check-resource response: error must be an integer (sid psn1)");
  }

  @Test void anUploadSidThatDoesNotBeginWithPsnIsMalformed() throws Exception {
    enqueue(envelope("00000", "success", "wapi1", "{\"sid\":\"wapi7\",\"csid\":\"c1\"}"),
        envelope("00000", "success", "wapi2", "{\"sid\":\"up1\",\"reply\":\"ok\",\"error\":0}"));

    // A receipt of that sid could never be checked: checkResource refuses it before sending.
    assertThatThrownBy(() -> api.uploadResource(request(contacts)).execute()).isInstanceOf(IOException.class)
        .hasMessage("malformed upload-resource response: data.sid must begin with psn, as an upload's"
            + " does; was: wapi7 (sid wapi1)");
    assertThatThrownBy(() -> api.checkResource("psn1").execute()).isInstanceOf(IOException.class)
        .hasMessage("malformed check-resource response: data.sid must begin with psn, as an upload's"
            + " does; was: up1 (sid wapi2)");
  }

  @Test void unknownFieldsAreIgnoredEverywhere() throws Exception {
    enqueue(body(200, "{\"code\":\"00000\",\"trace\":{\"id\":[1,2]},\"data\":{\"sid\":"
        + "\"psn1\",\"csid\":\"c1\",\"queued\":true},\"desc\":\"success\",\"sid\":\"wapi1\","
        + "\"version\":2}"));

    assertThat(api.uploadResource(request(contacts)).execute().sid()).isEqualTo("psn1");
    assertThat(log.warnings()).isEmpty();
  }

  // The namespace of res_name (protocol 2.5.6, 5.3: not said to be the signing one)

  @Test void anotherNamespaceIsSentWithAWarning() throws Exception {
    ResourceDefinition skill = ResourceDefinition.builder().name("SK777.contacts")
        .mainField("name").secondaryFields("alias").dimension(Dimension.USER).build();
    enqueue(envelope("00000", "success", "wapi1", "{\"sid\":\"psn1\",\"csid\":\"c1\"}"));

    assertThat(api.uploadResource(request(skill)).execute().sid()).isEqualTo("psn1");
    RecordedRequest sent = server.takeRequest();
    assertThat(sent.getHeader("X-NameSpace")).isEqualTo("OS123");
    assertThat(form(sent)).containsEntry("res_name", "SK777.contacts");
    assertThat(log.warnings()).containsExactly("WARN entity res_name SK777.contacts is in namespace"
        + " SK777, not in OS123 that signs the request: sent as it is, the platform decides"
        + " (docs/platform-assumptions.md)");
  }

  // A resource without a definition at hand (a ported app's CMD_SYNC)

  @Test void withoutADefinitionEveryRecordMustBeAJsonObject() throws Exception {
    ResourceName name = ResourceName.parse("OS123.contacts");
    enqueue(envelope("00000", "success", "wapi1", "{\"sid\":\"psn1\",\"csid\":\"c1\"}"));

    UploadReceipt receipt = api.uploadResource("5f1a2b3c", name, PersParam.user(AUTH_ID),
        RecordSource.fromText("\uFEFF{\"name\":\"张三\",\"extra\":1}\n{\"title\":\"x\"}")).execute();
    assertThat(receipt.sid()).isEqualTo("psn1");
    assertThat(WireAssertions.decodeBase64(form(server.takeRequest()).get("data")))
        .isEqualTo("{\"name\":\"张三\",\"extra\":1}\n{\"title\":\"x\"}");

    assertThatThrownBy(() -> api.uploadResource("5f1a2b3c", name, PersParam.user(AUTH_ID),
        RecordSource.fromText("{\"name\":\"a\"}\n[\"b\"]")).execute())
        .isInstanceOf(InvalidResourceException.class)
        .hasMessage("record 2 of OS123.contacts must be a JSON object; was BEGIN_ARRAY");
    assertThatThrownBy(() -> api.uploadResource(" ", name, PersParam.user(AUTH_ID),
        RecordSource.fromText("{}")).execute())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("appid must not be empty: it is the application identifier from the console");
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  // upload_entities (protocol 4.7): a 2xx with a sid is success, unless a code besides it says otherwise

  private PlatformToolsClient tools() {
    return PlatformToolsClient.builder(config).userTokens(() -> "user-token").build();
  }

  @Test void a200WithASidAndASuccessCodeIsSuccess() throws Exception {
    enqueue(body(200, "{\"code\":\"0\",\"message\":\"success\",\"sid\":\"ptu1\"}"));

    assertThat(tools().uploadEntities(contacts, RecordSource.fromText(TEXT), null).execute())
        .isEqualTo("ptu1");
    assertThat(server.takeRequest().getHeader("Content-Type")).isEqualTo("application/json");
    assertThat(log.warnings()).containsExactly("WARN entity upload_entities answered HTTP 200 with"
        + " code 0 besides its sid: the sid counts, the upload succeeded"
        + " (docs/platform-assumptions.md)");
  }

  @Test void a200WithTheFailureBodyOf47IsTheRefusalItsCodeSays() throws Exception {
    enqueue(body(200, "{\"code\":\"40103\",\"message\":\"token expired\",\"sid\":\"ptu2\"}"));

    assertThatThrownBy(() -> tools().uploadEntities(contacts, RecordSource.fromText(TEXT), null).execute())
        .isExactlyInstanceOf(PlatformUploadException.class)
        .hasMessage("40103: token expired (sid ptu2)")
        .extracting(e -> ((PlatformUploadException) e).httpStatus()).isEqualTo(200);
    assertThat(log.warnings()).containsExactly("WARN entity upload_entities answered HTTP 200 with"
        + " code 40103 besides its sid: read as the refusal its code says"
        + " (docs/platform-assumptions.md)");
  }

  @Test void a200WithoutASidIsStillAnError() throws Exception {
    enqueue(body(200, "{\"message\":\"ok\"}"),
        body(200, "{\"code\":\"40005\",\"message\":\"no resource\"}"));

    assertThatThrownBy(() -> tools().uploadEntities(contacts, RecordSource.fromText(TEXT), null).execute())
        .isExactlyInstanceOf(IOException.class)
        .hasMessage("malformed upload_entities response (HTTP 200): sid is missing");
    assertThatThrownBy(() -> tools().uploadEntities(contacts, RecordSource.fromText(TEXT), null).execute())
        .isExactlyInstanceOf(PlatformUploadException.class)
        .hasMessage("40005: no resource");
  }

  @Test void a400IsStillARefusal() throws Exception {
    enqueue(body(400, "{\"code\":\"0\",\"message\":\"bad\",\"sid\":\"ptu1\"}"));

    assertThatThrownBy(() -> tools().uploadEntities(contacts, RecordSource.fromText(TEXT), null).execute())
        .isExactlyInstanceOf(PlatformUploadException.class)
        .hasMessage("0: bad (sid ptu1)");
  }

  // upload_entities (protocol 4.7 shows a refusal as a 400): a 401 refuses the token, not the upload

  /** A source like a token manager's: a refused current token is replaced by a fresh one. */
  private static final class RotatingTokens implements TokenSource {
    final List<String> invalidated = new ArrayList<>();
    private int current = 1;

    @Override public synchronized String accessToken() {
      return "user-token-" + current;
    }

    @Override public synchronized void invalidate(String rejectedToken) {
      invalidated.add(rejectedToken);
      if (rejectedToken.equals(accessToken())) current++;
    }
  }

  private static final String TOKEN_REFUSED = "{\"code\":\"40103\",\"message\":\"the token is"
      + " unknown or has expired\"}";

  @Test void a401IsSentOnceMoreWithAFreshToken() throws Exception {
    enqueue(body(401, TOKEN_REFUSED), body(200, "{\"sid\":\"ptu1\"}"));
    RotatingTokens tokens = new RotatingTokens();

    assertThat(PlatformToolsClient.builder(config).userTokens(tokens).build()
        .uploadEntities(contacts, RecordSource.fromText(TEXT), null).execute()).isEqualTo("ptu1");
    RecordedRequest refused = server.takeRequest();
    RecordedRequest again = server.takeRequest();
    assertThat(refused.getHeader("Authorization")).isEqualTo("user-token-1");
    assertThat(again.getHeader("Authorization")).isEqualTo("user-token-2");
    assertThat(again.getBody().readUtf8()).isEqualTo(refused.getBody().readUtf8());
    assertThat(tokens.invalidated).containsExactly("user-token-1");
    assertThat(log.warnings()).containsExactly("WARN entity upload_entities answered HTTP 401: the"
        + " token was refused, so the upload was not taken; it is sent once more with a fresh token"
        + " (docs/platform-assumptions.md)");
  }

  @Test void aSecond401EndsTheUploadAndTheSourceKnowsBothTokens() throws Exception {
    enqueue(body(401, TOKEN_REFUSED), body(401, TOKEN_REFUSED), body(200, "{\"sid\":\"ptu1\"}"));
    RotatingTokens tokens = new RotatingTokens();

    assertThatThrownBy(() -> PlatformToolsClient.builder(config).userTokens(tokens).build()
        .uploadEntities(contacts, RecordSource.fromText(TEXT), null).execute())
        .isExactlyInstanceOf(PlatformUploadException.class)
        .hasMessage("40103: the token is unknown or has expired")
        .extracting(e -> ((PlatformUploadException) e).httpStatus()).isEqualTo(401);
    assertThat(server.getRequestCount()).isEqualTo(2);
    assertThat(tokens.invalidated).containsExactly("user-token-1", "user-token-2");
  }

  @Test void a401IsNotSentAgainWithTheSameToken() throws Exception {
    enqueue(body(401, TOKEN_REFUSED), body(200, "{\"sid\":\"ptu1\"}"));

    assertThatThrownBy(() -> tools().uploadEntities(contacts, RecordSource.fromText(TEXT), null).execute())
        .isExactlyInstanceOf(PlatformUploadException.class)
        .hasMessage("40103: the token is unknown or has expired");
    assertThat(server.getRequestCount()).isEqualTo(1);
    assertThat(log.warnings()).isEmpty();
  }
}
