package dev.voicelink.android.r8check;

import com.squareup.moshi.JsonReader;
import com.squareup.moshi.JsonWriter;
import android.content.Context;
import dev.voicelink.android.Agent;
import dev.voicelink.android.AgentConstants;
import dev.voicelink.android.AgentEvent;
import dev.voicelink.android.AgentListener;
import dev.voicelink.android.AgentMessage;
import dev.voicelink.android.EncryptedTokenStore;
import dev.voicelink.core.VoiceLinkClient;
import java.io.IOException;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okio.Buffer;

/**
 * A stand-in for an app that uses the SDK, shrunk by R8 with the SDK's consumer rules during the
 * build. It touches what the SDK uses at run time; R8 then shows what the rules keep. Never shipped.
 */
public final class ShrunkApp {
  private ShrunkApp() {}

  /** The Agent as an app drives it: R8 traces every path from here with the consumer rules. */
  public static void useAgent(Context context) throws IOException {
    String config = "{\"login\":{\"appid\":\"5f1a2b3c\"},"
        + "\"server\":{\"base_url\":\"https://api.example.com\",\"auth_url\":\"https://auth.example.com\"},"
        + "\"auth\":{\"client_id\":\"vl-speaker-01\"}}";
    AgentListener listener = new AgentListener() {
      @Override public void onEvent(AgentEvent event) {
        if (event.eventType() == AgentConstants.EVENT_ERROR) System.out.println(event.info());
      }
    };
    Agent agent = Agent.create(context, config, listener);
    agent.sendMessage(new AgentMessage(AgentConstants.CMD_SET_PARAMS, 0, 0,
        "{\"audioparams\":{\"pers_param\":\"{}\"}}", null));
    agent.sendMessage(new AgentMessage(AgentConstants.CMD_WRITE, 0, 0, "data_type=text",
        "hello".getBytes("UTF-8")));
    agent.destroy();
    Agent other = Agent.builder(context, config, listener).tokenSource(() -> "token").build();
    other.destroy();
    EncryptedTokenStore store = EncryptedTokenStore.create(context, "second");
    System.out.println(store.load());
  }

  public static void main(String[] args) throws IOException {
    // The client finds Android's main thread by reflection on framework classes.
    VoiceLinkClient.builder().baseUrl("https://api.example.com").build().close();

    OkHttpClient client = new OkHttpClient.Builder().build();
    HttpUrl url = HttpUrl.get("https://auth.example.com/oauth/device");
    // topPrivateDomain() loads okhttp's public suffix list by a path relative to its class.
    Request request = new Request.Builder().url(url).header("X-Domain", String.valueOf(url.topPrivateDomain())).build();
    client.newCall(request);

    Buffer buffer = new Buffer();
    JsonWriter writer = JsonWriter.of(buffer);
    writer.beginObject().name("device_code").value("x").endObject();
    writer.close();
    JsonReader reader = JsonReader.of(buffer);
    reader.beginObject();
    reader.nextName();
    reader.nextString();
    reader.endObject();
  }
}
