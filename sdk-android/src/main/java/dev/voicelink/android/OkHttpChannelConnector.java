package dev.voicelink.android;

import javax.annotation.Nullable;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.WebSocket;
import okhttp3.WebSocketListener;
import okio.ByteString;

/** The interaction channel over an OkHttp WebSocket: {@code {base_url}/v2/voicelink/interact}. */
final class OkHttpChannelConnector implements Channel.Connector {
  private final OkHttpClient client;
  private final HttpUrl url;

  OkHttpChannelConnector(OkHttpClient client, HttpUrl url) {
    this.client = client;
    this.url = url;
  }

  @Override public Channel open(String accessToken, final Channel.Listener listener) {
    Request request = new Request.Builder().url(url).header("Authorization", accessToken).build();
    final WebSocket socket = client.newWebSocket(request, new WebSocketListener() {
      @Override public void onMessage(WebSocket webSocket, String text) {
        listener.onText(text);
      }

      @Override public void onClosing(WebSocket webSocket, int code, String reason) {
        webSocket.close(1000, null);
      }

      @Override public void onClosed(WebSocket webSocket, int code, String reason) {
        listener.onClosed(null, 0);
      }

      @Override public void onFailure(WebSocket webSocket, Throwable t, @Nullable Response response) {
        listener.onClosed(t, response != null ? response.code() : 0);
      }
    });
    return new Channel() {
      @Override public boolean sendText(String text) {
        return socket.send(text);
      }

      @Override public boolean sendBinary(ByteString bytes) {
        return socket.send(bytes);
      }

      @Override public void close() {
        if (!socket.close(1000, null)) socket.cancel();
      }
    };
  }
}
