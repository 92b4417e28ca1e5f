package dev.voicelink.android.docs;

import android.content.Context;
import dev.voicelink.android.Agent;
import dev.voicelink.android.AgentCommands;
import dev.voicelink.android.AgentConstants;
import dev.voicelink.android.AgentError;
import dev.voicelink.android.AgentEvent;
import dev.voicelink.android.ConnectionEvent;
import dev.voicelink.android.EncryptedTokenStore;
import dev.voicelink.android.SyncReturn;
import dev.voicelink.android.SyncStatus;
import dev.voicelink.android.WriteResult;
import dev.voicelink.auth.DeviceFlowOutcome;
import dev.voicelink.auth.TokenManager;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.core.VoiceLinkLog;
import dev.voicelink.entity.PersParam;
import dev.voicelink.entity.ResourceDefinition;
import dev.voicelink.interact.RecognizedEntity;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The Android code shown in docs/agent.md and docs/getting-started.md. It lives here because it
 * compiles against the Android framework; docs-samples' DocsSnippetsTest compares the pages with it.
 */
final class AgentSnippets {
  private AgentSnippets() {
  }

  static void quickStart(Context context, String configText, VoiceLinkClient client,
      ResourceDefinition contacts, List<Map<String, String>> contactList) {
    // snippet:agent-quick-start
    Agent agent = Agent.builder(context, configText, event -> {
          ConnectionEvent connection = ConnectionEvent.from(event);
          SyncReturn sync = SyncReturn.from(event);
          WriteResult write = WriteResult.from(event);
          if (connection != null && connection.kind() == ConnectionEvent.Kind.CONNECTED) {
            /* syncs may be sent now */
          } else if (sync != null) {
            /* sync.sid() to query it, or sync.info(): why it failed */
          } else if (write != null) {
            /* write.result().entities(): what the user said that your resources hold */
          }
        })
        .client(client)                       // the app's one client, shared; never closed by the Agent
        // tokens: a TokenManager for auth.client_id in an EncryptedTokenStore (override: .tokenSource)
        .resourceDefinition(contacts)         // optional: CMD_SYNC checks its records field by field
        .build();
    agent.sendMessage(AgentCommands.sync(contacts).records(contactList).tag("contacts-1").build());
    // ...
    agent.destroy();                      // in the matching lifecycle callback: onDestroy or onStop
    // end-snippet
  }

  static void typedCommands(Agent agent, ResourceDefinition contacts,
      List<Map<String, String>> contactList, String sid) {
    // snippet:agent-typed-commands
    agent.sendMessage(AgentCommands.sync(contacts)       // CMD_SYNC: the definition names the resource
        .records(contactList)                            // maps of field to value, checked and encoded
        .tag("contacts-1")                               // comes back in the reply
        .build());                                       // the user's copy: ownerId(authId) to name one
    agent.sendMessage(AgentCommands.querySyncStatus(sid));                   // CMD_QUERY_SYNC_STATUS
    PersParam user = PersParam.activation().user().build();                  // {"uid":""}
    agent.sendMessage(AgentCommands.setPersParam(user));                     // CMD_SET_PARAMS
    agent.sendMessage(AgentCommands.writeText("call Zhang San").persParam(user).build()); // CMD_WRITE
    // end-snippet
  }

  static void typedEvents(AgentEvent event, Ui ui) {
    // snippet:agent-typed-events
    SyncReturn sync = SyncReturn.from(event);            // null unless it is the reply to a CMD_SYNC
    if (sync != null) {
      ui.show(sync.isSuccess() ? "uploaded " + sync.tag() + ": " + sync.sid() : sync.info());
    }
    SyncStatus status = SyncStatus.from(event);          // the reply to a CMD_QUERY_SYNC_STATUS
    if (status != null && status.processed()) ui.show("processed: " + status.sid());
    WriteResult write = WriteResult.from(event);         // EVENT_RESULT of a CMD_WRITE
    if (write != null) {
      for (RecognizedEntity entity : write.result().entities()) ui.show(entity.value());
    }
    AgentError error = AgentError.from(event);           // EVENT_ERROR
    if (error != null && error.code() == AgentConstants.ERROR_NOT_AUTHORIZED) ui.show("sign in again");
    ConnectionEvent connection = ConnectionEvent.from(event); // connected, disconnected, states
    if (connection != null) ui.show(connection.kind().toString());
    // end-snippet
  }

  /** Where the snippets show things. */
  interface Ui {
    void show(String text);
  }

  static TokenManager encryptedTokenStore(Context context, VoiceLinkClient client) {
    // snippet:android-token-store
    TokenManager tokens = TokenManager.builder(client)
        .deviceGrant("vl-speaker-01")
        .store(EncryptedTokenStore.create(context))   // store "default": no I/O until first used
        .build();                                     // on the main thread too: the store is read
                                                      // and written on SDK threads
    // end-snippet
    return tokens;
  }

  /** Where the sign-in snippet shows the code and its progress. */
  interface SignInScreen {
    void showCode(String userCode, String link);

    void show(String text);
  }

  static void signInAndOut(Agent agent, SignInScreen screen) {
    // snippet:agent-sign-in
    agent.signIn(code -> screen.showCode(code.userCode(), code.link()))  // auth.device_id's flow
        .enqueue(result -> {                        // on the main thread, the sign-in saved
          if (result.isSuccess() && result.value().kind() == DeviceFlowOutcome.Kind.AUTHORIZED) {
            screen.show("signed in");               // the Agent connects with it by itself
          } else if (!result.isCancelled()) {
            screen.show("not signed in: " + (result.isSuccess() ? result.value().kind()
                : result.failure().getMessage()));
          }
        });
    // ... later, from a "sign out" button: forgets the sign-in, closes the connection
    agent.signOut().enqueue(result -> screen.show("signed out"));
    // end-snippet
  }

  static void tokenState(Agent agent, SignInScreen screen) {
    // snippet:agent-token-state
    agent.tokenManager().addListener(change -> {    // on the main thread; told the last one first
      if (change.state() == TokenManager.State.REAUTHORIZATION_REQUIRED) {
        screen.show("please sign in again (" + change.cause() + ")"); // REFRESH_REFUSED, RECORD_LOST
      }
    });
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
