package dev.voicelink.samples.app;

import android.content.Context;
import dev.voicelink.auth.TokenRecord;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * The part of the SDK's Agent the Activity uses: send a command, receive events on the main thread,
 * destroy. One implementation per way of obtaining an Agent, chosen by {@link Factory}.
 */
interface AgentPort {
  void sendMessage(int msgType, int arg1, int arg2, String params, @Nullable byte[] data);

  void destroy();

  /** Called on the main thread, in order. {@code data} holds the event's data as text. */
  interface Listener {
    void onEvent(int eventType, int arg1, int arg2, String info, Map<String, String> data);
  }

  interface Factory {
    /** An Agent for {@code configText} that uses {@code token} for the interaction channel. */
    AgentPort create(Context context, String configText, TokenRecord token, Listener listener);
  }
}
