package dev.voicelink.entity;

import static dev.voicelink.entity.EntityDiagnostics.Cause.APPID_MISSING;
import static dev.voicelink.entity.EntityDiagnostics.Cause.BYTE_ORDER_MARK;
import static dev.voicelink.entity.EntityDiagnostics.Cause.DIMENSION_MISMATCH;
import static dev.voicelink.entity.EntityDiagnostics.Cause.FIELDS_MISMATCH;
import static dev.voicelink.entity.EntityDiagnostics.Cause.MISSING_NAMESPACE_PREFIX;
import static dev.voicelink.entity.EntityDiagnostics.Cause.PERS_PARAM_NOT_SET;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class EntityDiagnosticsTest {
  static final String AUTH_ID = "d41d8cd98f00b204e9800998ecf8427e";
  final ResourceDefinition contacts = ResourceDefinition.builder().name("OS123.contacts")
      .mainField("name").secondaryFields("alias").dimension(Dimension.USER).build();
  final ResourceDefinition family = ResourceDefinition.builder().name("OS123.family_members")
      .mainField("name").dimension(Dimension.custom("family")).build();

  EntityDiagnostics.Builder healthy() {
    return EntityDiagnostics.builder().resName("OS123.contacts").definition(contacts)
        .records(RecordSource.fromText("{\"name\":\"a\",\"alias\":\"\"}"))
        .uploadedWith(PersParam.user(AUTH_ID))
        .activation(PersParam.activation().user().build()).clientAppid("5f1a2b3c");
  }

  @Test void healthyUploadHasNoCause() throws Exception {
    assertThat(healthy().build().causes()).isEmpty();
  }

  @Test void eachKnownCauseIsFound() throws Exception {
    assertThat(healthy().resName("contacts").build().causes()).containsExactly(MISSING_NAMESPACE_PREFIX);
    assertThat(healthy().records(RecordSource.fromText("{\"name\":\"a\"}")).build().causes())
        .containsExactly(FIELDS_MISMATCH);
    assertThat(healthy().records(RecordSource.fromText("\uFEFF{\"name\":\"a\",\"alias\":\"\"}"))
        .build().causes()).containsExactly(BYTE_ORDER_MARK);
    assertThat(healthy().activation(null).build().causes()).containsExactly(PERS_PARAM_NOT_SET);
    assertThat(PERS_PARAM_NOT_SET.remedy()).isEqualTo("pass PersParam.activation()...toJson() with every"
        + " write: in CMD_WRITE's pers_param (a text write takes it from there alone), or with"
        + " CMD_SET_PARAMS for the audio writes after it");
    assertThat(healthy().clientAppid(null).build().causes()).containsExactly(APPID_MISSING);
    assertThat(healthy().activation(PersParam.activation().application().build()).build().causes())
        .containsExactly(DIMENSION_MISMATCH);
  }

  @Test void customActivationMustNameTheUploadedValue() throws Exception {
    EntityDiagnostics.Builder custom = EntityDiagnostics.builder().definition(family)
        .uploadedWith(PersParam.custom("family", "f-01")).clientAppid("5f1a2b3c");
    assertThat(custom.activation(PersParam.activation().custom("family", "f-01").build()).build()
        .causes()).isEmpty();
    assertThat(custom.activation(PersParam.activation().custom("family", "f-02").build()).build()
        .causes()).containsExactly(DIMENSION_MISMATCH);
  }

  @Test void theTwoPersParamsCannotBeSwapped() {
    assertThatThrownBy(() -> healthy().uploadedWith(PersParam.activation().user().build()))
        .isExactlyInstanceOf(IllegalArgumentException.class)
        .hasMessage("uploadedWith is the upload's pers_param, such as PersParam.user(authId); was"
            + " activation pers_param {\"uid\":\"\"}");
    assertThatThrownBy(() -> healthy().activation(PersParam.user(AUTH_ID)))
        .isExactlyInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("activation must be built with PersParam.activation(); was upload"
            + " pers_param ");
  }

  @Test void causesCarryRemedies() {
    for (EntityDiagnostics.Cause cause : EntityDiagnostics.Cause.values()) {
      assertThat(cause.description()).isNotEmpty();
      assertThat(cause.remedy()).isNotEmpty();
    }
  }
}
