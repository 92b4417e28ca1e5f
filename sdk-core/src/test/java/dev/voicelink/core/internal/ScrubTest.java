package dev.voicelink.core.internal;

import static org.assertj.core.api.Assertions.assertThat;

import okhttp3.Credentials;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.Request;
import okhttp3.RequestBody;
import org.junit.jupiter.api.Test;

class ScrubTest {
  private static final String TOKEN = "at_0123456789abcdef0123456789abcdef";

  @Test void secretNames() {
    assertThat(Scrub.isSecretName("access_token")).isTrue();
    assertThat(Scrub.isSecretName("Refresh_Token")).isTrue();
    assertThat(Scrub.isSecretName("client_secret")).isTrue();
    assertThat(Scrub.isSecretName("device_code")).isTrue();
    assertThat(Scrub.isSecretName("sms_code")).isTrue();
    assertThat(Scrub.isSecretName("accountKey")).isTrue();
    assertThat(Scrub.isSecretName("account_key")).isTrue();
    assertThat(Scrub.isSecretName("X-CheckSum")).isTrue();
    assertThat(Scrub.isSecretName("x-nonce")).isTrue();
    assertThat(Scrub.isSecretName("Authorization")).isTrue();
    assertThat(Scrub.isSecretName("token_type")).isFalse();
    assertThat(Scrub.isSecretName("user_code")).isFalse();
    assertThat(Scrub.isSecretName("code")).isFalse(); // the web API's result code
    assertThat(Scrub.isSecretName("sid")).isFalse();
    assertThat(Scrub.isSecretName("X-CurTime")).isFalse();
    assertThat(Scrub.isSecretName("deviceCode")).isTrue();
    assertThat(Scrub.isSecretName("device-code")).isTrue();
    assertThat(Scrub.isSecretName("smsCode")).isTrue();
    assertThat(Scrub.isSecretName("verificationCode")).isTrue();
    assertThat(Scrub.isSecretName("userCode")).isFalse();
  }

  @Test void aServersTextLosesEverySecretItsRequestCarried() {
    String refresh = "rt-1f7d0c3a9b8e4d2f99";
    String secret = "cs/with+chars 0123";
    Request form = Scrub.rememberingBody(new Request.Builder()
        .url("https://auth.example/token?client_secret=qs-0123456789")
        .header("Authorization", Credentials.basic("speaker", Form.encode(secret))) // as the SDK sends it
        .post(new Form().add("grant_type", "refresh_token").add("refresh_token", refresh).build())
        .build());

    assertThat(Scrub.serverText(form, "refresh token " + refresh + " is revoked")).isEqualTo(
        "refresh token ‹redacted› is revoked");
    assertThat(Scrub.serverText(form, "client " + secret + " / " + Form.encode(secret) + " / qs-0123456789"))
        .isEqualTo("client ‹redacted› / ‹redacted› / ‹redacted›");
    assertThat(Scrub.serverText(form, "grant refresh_token unknown")).as("names are not secrets")
        .isEqualTo("grant refresh_token unknown");

    Request json = Scrub.rememberingBody(new Request.Builder().url("https://auth.example/token")
        .header("Authorization", "Bearer " + TOKEN)
        .post(RequestBody.create("{\"grant_type\":\"device_code\",\"device\":{\"device_code\":"
            + "\"dc-0123456789\"},\"sms_code\":12345678}", MediaType.get("application/json"))).build());
    assertThat(Scrub.serverText(json, "code dc-0123456789 for " + TOKEN + " expired"))
        .isEqualTo("code ‹redacted› for ‹redacted› expired");
    assertThat(Scrub.serverText(json, "refresh_token=abcdefgh")).as("as text() too")
        .isEqualTo("refresh_token=‹redacted›");
    assertThat(Scrub.serverText(json, "sms 12345678 wrong")).as("a number too")
        .isEqualTo("sms ‹redacted› wrong");
  }

  @Test void aBodyTheSdkDidNotRememberIsNeverWrittenAgain() {
    java.util.concurrent.atomic.AtomicInteger writes = new java.util.concurrent.atomic.AtomicInteger();
    RequestBody appWrapped = new RequestBody() { // an app interceptor's progress counter, say
      @Override public MediaType contentType() {
        return MediaType.get("application/x-www-form-urlencoded");
      }

      @Override public void writeTo(okio.BufferedSink sink) throws java.io.IOException {
        writes.incrementAndGet();
        sink.writeUtf8("refresh_token=rt-0123456789");
      }
    };
    Request request = new Request.Builder().url("https://auth.example/token").post(appWrapped).build();
    assertThat(Scrub.serverText(request, "refresh token rt-0123456789 revoked"))
        .isEqualTo("refresh token rt-0123456789 revoked");
    assertThat(writes).hasValue(0);
  }

  @Test void proseInJsonValuesIsKept() {
    assertThat(Scrub.json("{\"text\":\"the basic plan expires\"}", null, false))
        .isEqualTo("{\"text\":\"the basic plan expires\"}");
  }

  @Test void secretsShorterThanSixCharactersAreNotLookedFor() {
    Request request = new Request.Builder().url("https://auth.example/token")
        .post(new Form().add("refresh_token", "abc12").build()).build();
    assertThat(Scrub.serverText(request, "abc12 and more")).isEqualTo("abc12 and more");
  }

  @Test void jsonFreeTextValuesLoseSecretsNamedInThem() {
    assertThat(Scrub.json("{\"error_description\":\"bad refresh_token=" + TOKEN + "\"}", null, false))
        .isEqualTo("{\"error_description\":\"bad refresh_token=‹redacted›\"}");
  }

  @Test void shortSecretsGetNoFingerprint() {
    assertThat(Scrub.value("123456")).isEqualTo("‹redacted›");
    assertThat(Scrub.value(TOKEN)).isEqualTo(Redact.secret(TOKEN));
  }

  @Test void jsonRedactsNestedAndNonStringSecretValues() {
    assertThat(Scrub.json("{\"a\":[{\"refresh_token\":\"" + TOKEN + "\"}],\"password\":{\"x\":1},"
        + "\"n\":1.5e3,\"ok\":true,\"none\":null}", null, false))
        .isEqualTo("{\"a\":[{\"refresh_token\":\"" + Redact.secret(TOKEN) + "\"}],"
            + "\"password\":\"‹redacted›\",\"n\":1.5e3,\"ok\":true,\"none\":null}");
  }

  @Test void truncatedJsonStopsAtTheCut() {
    assertThat(Scrub.json("{\"sid\":\"psn1\",\"access_token\":\"at_0123", null, true))
        .isEqualTo("{\"sid\":\"psn1\"…");
  }

  @Test void textThatIsNotJsonIsLeftOutAfterTheBreak() {
    assertThat(Scrub.json("{\"sid\":\"psn1\" \"access_token\" " + TOKEN, null, false))
        .isEqualTo("{\"sid\":\"psn1\"… (not JSON from here on; left out)");
  }

  @Test void bulkMembersShowOnlyTheirSize() {
    assertThat(Scrub.json("{\"type\":\"user\",\"data\":[{\"name\":\"Zhang San\"},{\"name\":\"Li\"}]}",
        "data", false)).isEqualTo("{\"type\":\"user\",\"data\":\"‹2 records›\"}");
  }

  @Test void formValuesAreDecodedBeforeTheirFingerprintIsTaken() {
    assertThat(Scrub.form("refresh_token=a%2Bb%20c%E5%BC%A0&sms_code=123456&x=1", null, false))
        .isEqualTo("refresh_token=" + Scrub.value("a+b c张") + "&sms_code=‹redacted›&x=1");
    assertThat(Scrub.form("x=1&device_code=dc_0011223344556677", null, true))
        .isEqualTo("x=1&device_code=‹redacted›");
  }

  @Test void plainTextLosesValuesAfterSecretNamesAndBearerCredentials() {
    assertThat(Scrub.text("<p>refresh_token: " + TOKEN + "</p> Authorization: Bearer abc.def"))
        .isEqualTo("<p>refresh_token: ‹redacted›</p> Authorization: Bearer ‹redacted›");
  }

  @Test void anErrorPageThatEchoesTheRequestLosesItsSecretsInAnyNotation() {
    assertThat(Scrub.text("X-CheckSum: 0f3c9e8a7b6d5c4e3f2a1b0c9d8e7f6a\nX-Nonce: n0nce-1\n"
        + "Authorization: Basic c3BlYWtlcjpzM2NyZXQ=\n<access_token>" + TOKEN + "</access_token>"
        + " {\"accessToken\":\"" + TOKEN + "\"} clientSecret=s3cret"))
        .isEqualTo("X-CheckSum: ‹redacted›\nX-Nonce: ‹redacted›\nAuthorization: Basic ‹redacted›\n"
            + "<access_token>‹redacted›</access_token> {\"accessToken\":\"‹redacted›\"}"
            + " clientSecret=‹redacted›");
  }

  @Test void anEchoedPlatformAuthorizationWithoutASchemeAndAnyTokenNamedSoLoseTheirValues() {
    assertThat(Scrub.text("Authorization: at-1f7d0c3a9b8e4d2f0011\nProxy-Authorization: pa-0123\n"
        + "token=" + TOKEN + "&x=1 {\"session_token\": \"" + TOKEN + "\"} csrf-token: c5rf"))
        .isEqualTo("Authorization: ‹redacted›\nProxy-Authorization: ‹redacted›\n"
            + "token=‹redacted›&x=1 {\"session_token\": \"‹redacted›\"} csrf-token: ‹redacted›");
    assertThat(Scrub.text("GET /oauth2/token: 400; tokens: 3, token_type: bearer"))
        .isEqualTo("GET /oauth2/token: 400; tokens: 3, token_type: bearer");
    assertThat(Scrub.text("oauth2_refresh_token=rt-9 user_password: hunter2 app_client_secret=abc"
        + " oauth2Token: t-1"))
        .isEqualTo("oauth2_refresh_token=‹redacted› user_password: ‹redacted›"
            + " app_client_secret=‹redacted› oauth2Token: ‹redacted›");
  }

  @Test void rubyAndPhpDumpsLoseTheirSecretsToo() {
    assertThat(Scrub.text("{\"access_token\"=>\"" + TOKEN + "\"} [refresh_token] => " + TOKEN))
        .isEqualTo("{\"access_token\"=>\"‹redacted›\"} [refresh_token] => ‹redacted›");
    assertThat(Scrub.text("nonbasic setting")).isEqualTo("nonbasic setting");
  }

  @Test void anAddressInARedirectHeaderLosesItsSecrets() {
    assertThat(Scrub.header("Location", "https://app.example/cb?code=1&access_token=" + TOKEN))
        .isEqualTo("https://app.example/cb?code=1&access_token=‹redacted›");
    assertThat(Scrub.header("Content-Type", "text/plain; access_token=x"))
        .as("other headers are left as they are").isEqualTo("text/plain; access_token=x");
  }

  @Test void urlQuery() {
    assertThat(Scrub.url(HttpUrl.get("http://h/p?a=1&client_secret=xyz&flag")))
        .isEqualTo("http://h/p?a=1&client_secret=‹redacted›&flag");
  }

  @Test void addressLosesUserCredentialsAndSecretQueryValuesWhetherItParsesOrNot() {
    assertThat(Scrub.address("https://u:s3cret@h.example/p?a=1&access_token=t0ken#fragment"))
        .isEqualTo("https://‹redacted›@h.example/p?a=1&access_token=‹redacted›");
    assertThat(Scrub.address("htps:/u:s3cret@h .example/?client_secret=xyz"))
        .isEqualTo("htps:/‹redacted›@h .example/?client_secret=‹redacted›");
    // a password of Base64 characters, or with an @, does not end the user information early
    assertThat(Scrub.address("https://client:AbC/dEf+g==@auth.example.com/x"))
        .isEqualTo("https://‹redacted›@auth.example.com/x");
    assertThat(Scrub.address("https://u:p@ss@host/x")).isEqualTo("https://‹redacted›@host/x");
    assertThat(Scrub.address("https://h.example/path?x=1")).isEqualTo("https://h.example/path?x=1");
    assertThat(Scrub.address("not an address")).isEqualTo("not an address");
  }

  @Test void headersThatCarryAnAddressAnywhereInTheValueLoseItsSecrets() {
    assertThat(Scrub.header("Link", "<https://u:s3cret@h.example/a>; rel=\"next\","
        + " <https://v:t0p@h.example/b?access_token=t0ken>; rel=\"prev\""))
        // a secret value runs to the next space, quote or separator: the '>' goes with it
        .isEqualTo("<https://‹redacted›@h.example/a>; rel=\"next\","
            + " <https://‹redacted›@h.example/b?access_token=‹redacted›; rel=\"prev\"");
    assertThat(Scrub.header("Refresh", "0; url=https://u:s3cret@h.example/next"))
        .isEqualTo("0; url=https://‹redacted›@h.example/next");
    assertThat(Scrub.header("Refresh", "0;url=//u:s3cret@h.example/next"))
        .isEqualTo("0;url=//‹redacted›@h.example/next");
    assertThat(Scrub.header("Location", "//u:s3cret@h.example/next"))
        .isEqualTo("//‹redacted›@h.example/next");
    // a Unicode space in a password does not end the address, as it does not in the other patterns
    assertThat(Scrub.header("Location", "https://u:pa\u2003ss@h.example/"))
        .isEqualTo("https://‹redacted›@h.example/");
    assertThat(Scrub.header("Location", "https://h.example/p?q=1")).isEqualTo("https://h.example/p?q=1");
    assertThat(Scrub.header("Link", "<https://h.example/a>; rel=\"next\""))
        .isEqualTo("<https://h.example/a>; rel=\"next\"");
  }
}
