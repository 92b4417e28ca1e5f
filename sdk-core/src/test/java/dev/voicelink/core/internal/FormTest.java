package dev.voicelink.core.internal;

import static org.assertj.core.api.Assertions.assertThat;

import okhttp3.RequestBody;
import okio.Buffer;
import org.junit.jupiter.api.Test;

class FormTest {
  @Test void encodesAsRfc6749AppendixBWhateverOkHttpWouldWrite() throws Exception {
    RequestBody body = new Form()
        .add("scope", "openid offline_access")
        .add("scope_data", "{\"a\":\"b c\"}")
        .add("odd", "a+b*c~d!'()张/=&%-._")
        .build();
    Buffer written = new Buffer();
    body.writeTo(written);

    // Computed by hand from the RFC's rules: a space is '+', every byte but letters, digits and
    // "*-._" is %XX in upper case, '+' itself is %2B. OkHttp 4's add() would write "%20".
    assertThat(written.readUtf8()).isEqualTo("scope=openid+offline_access"
        + "&scope_data=%7B%22a%22%3A%22b+c%22%7D"
        + "&odd=a%2Bb*c%7Ed%21%27%28%29%E5%BC%A0%2F%3D%26%25-._");
    assertThat(body.contentType().toString()).isEqualTo("application/x-www-form-urlencoded");
  }

  @Test void encodesACredentialTheSameWay() {
    assertThat(Form.encode("client id:é")).isEqualTo("client+id%3A%C3%A9");
  }
}
