package dev.voicelink.entity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class AuthIdTest {
  // Computed outside the SDK, as a backend would: printf '%s\n%s' "$ISS" "$SUB" | md5sum
  @Test void isTheHexMd5OfIssuerLineBreakSubject() {
    assertThat(AuthId.fromThirdPartyIdentity("https://login.example.com/realms/speakers", "248289761001"))
        .isEqualTo("92f8ff4bc21aa2c906fd102a22d3d1c6");
    assertThat(AuthId.fromThirdPartyIdentity("http://127.0.0.1:9000", "alice"))
        .isEqualTo("cb837cdbf3bde74d5d4cd0d9a52ecca7");
    assertThat(AuthId.fromThirdPartyIdentity("https://accounts.example.org", "Ünïcode-sub"))
        .as("the subject's UTF-8 bytes").isEqualTo("35a702fd5921b4064d732dd80b57cbac");
  }

  @Test void isAValidUserDimension() {
    String authId = AuthId.fromThirdPartyIdentity("http://127.0.0.1:9000", "alice");

    PersParam.checkAuthId(authId);
    assertThat(PersParam.user(authId).toJson()).isEqualTo("{\"auth_id\":\"" + authId + "\"}");
  }

  @Test void theSameSubjectAtAnotherIssuerIsAnotherUser() {
    assertThat(AuthId.fromThirdPartyIdentity("https://a.example", "alice"))
        .isNotEqualTo(AuthId.fromThirdPartyIdentity("https://b.example", "alice"));
  }

  @Test void badInputIsRefusedNamingTheField() {
    assertThatThrownBy(() -> AuthId.fromThirdPartyIdentity("", "alice"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("issuer must not be empty: it is the iss of the user's server");
    assertThatThrownBy(() -> AuthId.fromThirdPartyIdentity(null, "alice"))
        .hasMessage("issuer must not be empty: it is the iss of the user's server");
    assertThatThrownBy(() -> AuthId.fromThirdPartyIdentity("https://a.example\nbob", "x"))
        .hasMessage("issuer must be a URL without blanks or line breaks; has one at index 17");
    assertThatThrownBy(() -> AuthId.fromThirdPartyIdentity("https://a.example", ""))
        .hasMessage("subject must not be empty: it is the sub of the user at the issuer");
    assertThatThrownBy(() -> AuthId.fromThirdPartyIdentity("https://a.example", null))
        .hasMessage("subject must not be empty: it is the sub of the user at the issuer");
  }
}
