package dev.voicelink.entity;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ResourceDefinitionTest {
  private static ResourceDefinition.Builder contacts() {
    return ResourceDefinition.builder().name("OS123.contacts").mainField("name")
        .secondaryFields("alias", "nickname").dimension(Dimension.USER);
  }

  @Test void definitionsWithTheSameNameFieldsAndDimensionAreEqual() {
    assertThat(contacts().build()).isEqualTo(contacts().build())
        .hasSameHashCodeAs(contacts().build())
        .isNotEqualTo(contacts().name("OS123.friends").build())
        .isNotEqualTo(contacts().mainField("alias").secondaryFields("name", "nickname").build())
        .isNotEqualTo(contacts().secondaryFields("nickname", "alias").build())
        .isNotEqualTo(contacts().dimension(Dimension.APPLICATION).build());
  }
}
