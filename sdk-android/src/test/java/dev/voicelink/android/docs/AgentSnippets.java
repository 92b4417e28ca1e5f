package dev.voicelink.android.docs;

import android.content.Context;
import dev.voicelink.android.Agent;
import dev.voicelink.android.AgentConstants;
import dev.voicelink.android.AgentMessage;
import dev.voicelink.android.EncryptedTokenStore;
import dev.voicelink.auth.DeviceFlowOutcome;
import dev.voicelink.auth.TokenManager;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.core.VoiceLinkLog;
import dev.voicelink.entity.ResourceDefinition;
import org.jspecify.annotations.Nullable;

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
        .resourceDefinition(contacts)         // optional: CMD_SYNC checks its records field by field
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
    tokens.setRecord(outcome.token());   // off the main thread, after the device flow authorized
    // end-snippet
  }

  static void logging(boolean releaseBuild) {
    // snippet:android-logging
    if (releaseBuild) { // warnings and errors only, still in Logcat
      final VoiceLinkLog.Sink logcat = VoiceLinkLog.defaultSink();
      VoiceLinkLog.setSink(new VoiceLinkLog.Sink() {
        @Override public boolean isLoggable(VoiceLinkLog.Level level, String tag) {
          return level.compareTo(VoiceLinkLog.Level.WARN) >= 0;
        }

        @Override public void log(VoiceLinkLog.Level level, String tag, String message,
            @Nullable Throwable error) {
          logcat.log(level, tag, message, error);
        }
      });
    }
    // nothing at all: VoiceLinkLog.setSink(VoiceLinkLog.silent());
    // end-snippet
  }
}
