package dev.voicelink.android.docs;

import android.content.Context;
import dev.voicelink.android.Agent;
import dev.voicelink.android.AgentConstants;
import dev.voicelink.android.AgentMessage;
import dev.voicelink.android.EncryptedTokenStore;
import dev.voicelink.auth.DeviceFlowOutcome;
import dev.voicelink.auth.TokenManager;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.entity.ResourceDefinition;

/**
 * The Android code shown in docs/agent.md and docs/getting-started.md. It lives here because it
 * compiles against the Android framework; docs-samples' DocsSnippetsTest compares the pages with it.
 */
final class AgentSnippets {
  private AgentSnippets() {
  }

  static void quickStart(Context context, String configText, VoiceLinkClient client,
      ResourceDefinition contacts, byte[] syncData) {
    // snippet:agent-quick-start
    Agent agent = Agent.builder(context, configText, event -> {
          switch (event.eventType()) {
            case AgentConstants.EVENT_CONNECTED_TO_SERVER: /* syncs may be sent now */ break;
            case AgentConstants.EVENT_CMD_RETURN: /* reply of CMD_SYNC / CMD_QUERY_SYNC_STATUS */ break;
            case AgentConstants.EVENT_RESULT: /* result of a CMD_WRITE */ break;
          }
        })
        .client(client)                       // the app's one client, shared; never closed by the Agent
        // tokens: a TokenManager for auth.client_id in an EncryptedTokenStore (override: .tokenSource)
        .resourceDefinition(contacts)         // each resource CMD_SYNC may upload
        .build();
    agent.sendMessage(new AgentMessage(AgentConstants.CMD_SYNC, AgentConstants.SYNC_DATA_SCHEMA, 0,
        "{\"tag\":\"contacts-1\"}", syncData));
    // ...
    agent.destroy();                      // in the matching lifecycle callback: onDestroy or onStop
    // end-snippet
  }

  static void encryptedTokenStore(Context context, VoiceLinkClient client,
      DeviceFlowOutcome outcome) throws java.io.IOException {
    // snippet:android-token-store
    EncryptedTokenStore store = EncryptedTokenStore.create(context);          // store "default"
    TokenManager tokens = TokenManager.builder(client)
        .deviceGrant("vl-speaker-01")
        .store(store)
        .build();
    tokens.setRecord(outcome.token());   // once, after the device flow (DeviceAuthorizer) authorized
    // end-snippet
  }
}
