package dev.voicelink.samples.kotlin

import android.content.Context
import dev.voicelink.android.Agent
import dev.voicelink.android.AgentConstants
import dev.voicelink.android.AgentMessage
import dev.voicelink.core.VoiceLinkClient
import dev.voicelink.core.VoiceLinkLog
import dev.voicelink.entity.ResourceDefinition

fun runAgent(context: Context, configText: String, client: VoiceLinkClient,
    contacts: ResourceDefinition, syncData: ByteArray, ui: Show) {
  // snippet:agent-quick-start-kotlin
  val agent = Agent.builder(context, configText) { event ->
        when (event.eventType()) {
          AgentConstants.EVENT_CONNECTED_TO_SERVER -> ui.show("connected") // syncs may be sent now
          AgentConstants.EVENT_CMD_RETURN -> ui.show("reply ${event.arg1()}: ${event.arg2()}")
          AgentConstants.EVENT_RESULT -> ui.show(event.info())              // a CMD_WRITE's result
        }
      }
      .client(client)                  // the app's one client, shared; the Agent never closes it
      .resourceDefinition(contacts)    // optional: CMD_SYNC checks its records field by field
      .build()
  agent.sendMessage(AgentMessage(AgentConstants.CMD_SYNC, AgentConstants.SYNC_DATA_SCHEMA, 0,
      """{"tag":"contacts-1"}""", syncData))
  // ...
  agent.destroy()                      // in the matching lifecycle callback: onDestroy or onStop
  // end-snippet
}

fun logTo(ui: Show) {
  VoiceLinkLog.setSink { level, tag, message, _ -> ui.show("$level $tag: $message") }
}
