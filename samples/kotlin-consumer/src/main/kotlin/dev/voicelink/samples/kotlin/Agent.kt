package dev.voicelink.samples.kotlin

import android.content.Context
import dev.voicelink.android.Agent
import dev.voicelink.android.AgentCommands
import dev.voicelink.android.ConnectionEvent
import dev.voicelink.android.SyncReturn
import dev.voicelink.android.WriteResult
import dev.voicelink.core.VoiceLinkClient
import dev.voicelink.core.VoiceLinkLog
import dev.voicelink.entity.ResourceDefinition

fun runAgent(context: Context, configText: String, client: VoiceLinkClient,
    contacts: ResourceDefinition, contactList: List<Map<String, String>>, ui: Show) {
  // snippet:agent-quick-start-kotlin
  val agent = Agent.builder(context, configText) { event ->
        if (ConnectionEvent.from(event)?.kind() == ConnectionEvent.Kind.CONNECTED) {
          ui.show("connected")                                     // syncs may be sent now
        }
        SyncReturn.from(event)?.let { ui.show(if (it.isSuccess) "synced ${it.sid()}" else it.info()) }
        WriteResult.from(event)?.let { ui.show(it.result().text()) } // a CMD_WRITE's result
      }
      .client(client)                  // the app's one client, shared; the Agent never closes it
      .resourceDefinition(contacts)    // optional: CMD_SYNC checks its records field by field
      .build()
  agent.sendMessage(AgentCommands.sync(contacts).records(contactList).tag("contacts-1").build())
  // ...
  agent.destroy()                      // in the matching lifecycle callback: onDestroy or onStop
  // end-snippet
}

fun logTo(ui: Show) {
  VoiceLinkLog.setSink { level, tag, message, _ -> ui.show("$level $tag: $message") }
}
