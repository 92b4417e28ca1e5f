package app;

import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.WebSocket;
import okhttp3.WebSocketListener;

/**
 * Second reference point: the OkHttp app that also opens a WebSocket, as the interaction channel does.
 * Its delta over the OkHttp app is what OkHttp's own WebSocket code costs an app.
 */
public final class App extends WebSocketListener {
  private App() {}

  // The harness packs app/App.class alone, so the app is its own listener (no nested classes).
  @Override public void onMessage(WebSocket webSocket, String text) {
    System.out.println(text);
  }

  @Override public void onFailure(WebSocket webSocket, Throwable t, Response response) {
    System.out.println(t);
  }

  public static void main(String[] args) throws Exception {
    OkHttpClient client = new OkHttpClient();
    try (Response response = client.newCall(new Request.Builder().url(args[0]).build()).execute()) {
      System.out.println(response.code());
    }
    WebSocket socket = client.newWebSocket(new Request.Builder().url(args[1]).build(), new App());
    socket.send(args[2]);
    socket.close(1000, null);
  }
}
