package dev.voicelink.samples.app;

import dev.voicelink.android.AgentCommands;
import dev.voicelink.android.AgentMessage;
import dev.voicelink.entity.PersParam;
import dev.voicelink.entity.ResourceDefinition;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The commands the sample sends (protocol 4.10), built from typed values by the SDK's {@link
 * AgentCommands}: no JSON, Base64 or {@code key=value} text is written here.
 */
final class Commands {
  /** Activates the user-level resources: {@code {"uid":""}}, the uid filled from the connection. */
  static final PersParam USER = PersParam.activation().user().build();

  private Commands() {
  }

  /**
   * CMD_SYNC of the sample contacts, a user-level resource: checked against the definition and
   * encoded by the SDK, owned by the signed-in user (the Agent fills the empty {@code id_value}).
   *
   * @throws dev.voicelink.entity.InvalidResourceException if a contact breaks the definition
   */
  static AgentMessage syncContacts(ResourceDefinition contacts, String tag) {
    return AgentCommands.sync(contacts).records(sampleContacts()).tag(tag).build();
  }

  static AgentMessage queryStatus(String sid) {
    return AgentCommands.querySyncStatus(sid);
  }

  static AgentMessage setPersParam() {
    return AgentCommands.setPersParam(USER);
  }

  /** @throws IllegalArgumentException if {@code text} is empty */
  static AgentMessage writeText(String text) {
    return AgentCommands.writeText(text).persParam(USER).build();
  }

  /** The phone's contacts, as an app would read them from the contacts provider. */
  static List<Map<String, String>> sampleContacts() {
    List<Map<String, String>> contacts = new ArrayList<>();
    contacts.add(contact("Zhang San", "Old Zhang"));
    contacts.add(contact("Li Si", ""));
    contacts.add(contact("Wang Wu", "Xiao Wang"));
    return contacts;
  }

  private static Map<String, String> contact(String name, String alias) {
    Map<String, String> record = new LinkedHashMap<>();
    record.put("name", name);
    record.put("alias", alias);
    return record;
  }
}
