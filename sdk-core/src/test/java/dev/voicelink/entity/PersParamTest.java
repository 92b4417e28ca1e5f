package dev.voicelink.entity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import org.junit.jupiter.api.Test;

class PersParamTest {
  private static final String AUTH_ID = "d41d8cd98f00b204e9800998ecf8427e";

  @Test void anActivationTextIsReadWithItsOrder() {
    PersParam read = PersParam.parseActivation("{\"family\":\"f-01\",\"uid\":\"\",\"appid\":\"\"}");
    assertThat(read.isActivation()).isTrue();
    assertThat(read.dimension()).isNull();
    assertThat(read.toJson()).isEqualTo("{\"family\":\"f-01\",\"uid\":\"\",\"appid\":\"\"}");
    // The pair an upload named (protocol 4.10): an explicit owner instead of the one the platform fills in.
    assertThat(PersParam.parseActivation("{\"uid\":\"" + AUTH_ID + "\",\"appid\":\"5f1a2b3c\"}")
        .entries()).containsExactly(
            entry("uid", AUTH_ID),
            entry("appid", "5f1a2b3c"));
  }

  /**
   * Half of a surrogate pair (an emoji cut by a length limit) would go out as '?' and name another
   * group without a word: refused, as in records.
   */
  @Test void aLoneSurrogateInAValueOrTheAppidIsRefused() {
    assertThatThrownBy(() -> PersParam.custom("family", "f\uD83D"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("pers_param.family has a lone surrogate U+D83D at character 2; UTF-8 can only"
            + " carry a surrogate pair (often an emoji was cut in half)");
    assertThatThrownBy(() -> PersParam.parseActivation("{\"family\":\"\\udc00f\"}"))
        .hasMessage("pers_param.family has a lone surrogate U+DC00 at character 1; UTF-8 can only"
            + " carry a surrogate pair (often an emoji was cut in half)");
    assertThatThrownBy(() -> UploadRequest.builder().appid("5f1a\uD83D"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("appid has a lone surrogate U+D83D at character 5; UTF-8 can only carry a"
            + " surrogate pair (often an emoji was cut in half)");
    assertThat(PersParam.custom("family", "f\uD83D\uDE00").toJson()).as("a whole pair is fine")
        .isEqualTo("{\"family\":\"f\uD83D\uDE00\"}");
  }

  @Test void whatThePlatformWouldRefuseLaterIsRefusedWithTheKeyNamed() {
    assertThatThrownBy(() -> PersParam.parseActivation("{}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("pers_param must name at least one level (appid, uid or a custom dimension): an"
            + " empty one activates nothing");
    assertThatThrownBy(() -> PersParam.parseActivation("{\"family\":\"\"}"))
        .hasMessage("pers_param.family must not be empty: it names the group that owns the data");
    assertThatThrownBy(() -> PersParam.parseActivation("{\"uid\":\"D41D8CD98F00B204E9800998ECF8427E\"}"))
        .hasMessage("pers_param.uid must be empty (the platform fills it in) or an auth_id of 32"
            + " lowercase letters or digits; has 'D' at index 0");
    assertThatThrownBy(() -> PersParam.parseActivation("{\"auth_id\":\"" + AUTH_ID + "\"}"))
        .hasMessage("pers_param.auth_id is not a level: a key is appid, uid or a custom dimension"
            + " name (custom dimension name must not be auth_id: the platform reserves it for the"
            + " application and user levels)");
    assertThatThrownBy(() -> PersParam.parseActivation("{\"car model\":\"x\"}"))
        .hasMessage("pers_param.car model is not a level: a key is appid, uid or a custom dimension"
            + " name (custom dimension name must be letters, digits, _ or -; was: car model)");
  }

  @Test void textThatIsNotOneObjectOfStringsIsRefused() {
    assertThatThrownBy(() -> PersParam.parseActivation("{\"uid\":1}"))
        .hasMessage("pers_param.uid must be a string; was a number");
    assertThatThrownBy(() -> PersParam.parseActivation("{\"uid\":{}}"))
        .hasMessage("pers_param.uid must be a string; was an object");
    assertThatThrownBy(() -> PersParam.parseActivation("{\"uid\":\"\",\"uid\":\"\"}"))
        .hasMessage("pers_param must be the text of a JSON object such as {\"uid\":\"\"}; was:"
            + " {\"uid\":\"\",\"uid\":\"\"}");
    assertThatThrownBy(() -> PersParam.parseActivation("{\"uid\":\"\"} x"))
        .hasMessage("pers_param must be the text of a JSON object such as {\"uid\":\"\"}; was:"
            + " {\"uid\":\"\"} x");
    assertThatThrownBy(() -> PersParam.parseActivation("\"uid\""))
        .hasMessage("pers_param must be the text of a JSON object such as {\"uid\":\"\"}; was: \"uid\"");
  }

  @Test void anAuthIdThePlatformCannotFillInIsActivatedByName() {
    String authId = AuthId.fromThirdPartyIdentity("https://accounts.example.com", "user-1001");
    PersParam named = PersParam.activation().application().user(authId).build();

    assertThat(named.toJson()).isEqualTo("{\"appid\":\"\",\"uid\":\"" + authId + "\"}");
    assertThat(PersParam.parseActivation(named.toJson())).isEqualTo(named);
    assertThatThrownBy(() -> PersParam.activation().user("Alice"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("auth_id must be 32 lowercase letters or digits; was 5 characters");
    assertThatThrownBy(() -> PersParam.activation().user(""))
        .hasMessage("auth_id must be 32 lowercase letters or digits; was empty");
    assertThatThrownBy(() -> PersParam.activation().user(AUTH_ID.toUpperCase(java.util.Locale.ROOT)))
        .hasMessage("auth_id must be 32 lowercase letters or digits; has 'D' at index 0");
    assertThatThrownBy(() -> PersParam.activation().user().user(AUTH_ID))
        .hasMessage("pers_param already has the key uid");
  }
}
