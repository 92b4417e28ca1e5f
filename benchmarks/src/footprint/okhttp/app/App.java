package app;

import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

/** Reference point: an app that makes one HTTP call with OkHttp and nothing else. */
public final class App {
  private App() {}

  public static void main(String[] args) throws Exception {
    OkHttpClient client = new OkHttpClient();
    try (Response response = client.newCall(new Request.Builder().url(args[0]).build()).execute()) {
      System.out.println(response.code());
    }
  }
}
