package dev.voicelink.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.Collections;
import org.junit.jupiter.api.Test;

/** The console's value types refuse what a console could not hold, naming the field. */
class ConsoleValuesTest {
  @Test void aRegisteredClientNeedsItsIdSecretAndName() {
    assertThatThrownBy(() -> RegisteredClient.create("", "secret", "Speaker", null))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("clientId must not be empty");
    assertThatThrownBy(() -> RegisteredClient.create("c", null, "Speaker", null))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("clientSecret must not be empty");
    assertThatThrownBy(() -> RegisteredClient.create("c", "secret", "", "5f1a2b3c"))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("name must not be empty");
    RegisteredClient client = RegisteredClient.create("c", "s3cr3t-value", "Speaker", null);
    assertThat(client.appid()).isNull();
    assertThat(client.toString()).doesNotContain("s3cr3t-value");
  }

  @Test void anEntityDefinitionNeedsANameFieldsAndADimension() {
    assertThatThrownBy(() -> EntityDefinition.create("contacts", "name", Collections.emptyList(),
        EntityDefinition.USER)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("resName must be <namespace>.<name>, e.g. OS123.contacts; was: contacts");
    assertThatThrownBy(() -> EntityDefinition.create("OS123.contacts", "full name", Collections.emptyList(),
        EntityDefinition.USER)).hasMessage("mainField must be a field name; was: full name");
    assertThatThrownBy(() -> EntityDefinition.create("OS123.contacts", "name", null, EntityDefinition.USER))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("secondaryFields must be a list of field names, empty for none; was: null");
    assertThatThrownBy(() -> EntityDefinition.create("OS123.contacts", "name", Arrays.asList("alias", "name"),
        EntityDefinition.USER))
        .hasMessage("secondaryFields must be field names other than the main field; was: [alias, name]");
    assertThatThrownBy(() -> EntityDefinition.create("OS123.contacts", "name", Collections.emptyList(), ""))
        .hasMessage("dimension must be os_client_id, os_user_id, os_device_id or a custom name; was: ");
    EntityDefinition contacts = EntityDefinition.create("OS123.contacts", "name",
        Collections.singletonList("alias"), EntityDefinition.USER);
    assertThat(contacts.namespace()).isEqualTo("OS123");
    assertThat(contacts.fields()).containsExactly("name", "alias");
  }

  @Test void anEntityNeedsTheAccountOfItsNamespaceAlsoWhenAddedLater() {
    EntityDefinition rooms = EntityDefinition.create("NS9.rooms", "name", Collections.emptyList(), "house");
    assertThatThrownBy(() -> Console.builder().entity(rooms).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("entity NS9.rooms needs an account with namespace NS9");
    Console console = Console.defaults();
    assertThatThrownBy(() -> console.putEntity(rooms))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("entity NS9.rooms needs an account with namespace NS9");
    assertThat(console.getEntities()).doesNotContain(rooms);
  }
}
