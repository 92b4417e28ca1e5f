package dev.voicelink.reliability;

import dev.voicelink.auth.FileTokenStore;
import dev.voicelink.auth.TokenManager;
import dev.voicelink.auth.TokenRecord;
import dev.voicelink.auth.TokenStore;
import dev.voicelink.core.VoiceLinkClient;
import java.io.File;
import java.io.IOException;
import org.jspecify.annotations.Nullable;

/**
 * Child process of {@link RotatedRefreshCrashTest}: refreshes the token in {@code <token file>}
 * against {@code <auth_url>} and dies the moment the store is asked to save the rotated record, after
 * the server rotated and before anything was written. {@link Runtime#halt} runs no shutdown hook and
 * no finally block: to the file, it is SIGKILL at the worst moment.
 */
public final class DiesBeforeSavingRotation {
  static final int EXIT_CODE = 137;

  private DiesBeforeSavingRotation() {
  }

  public static void main(String[] args) throws Exception {
    final FileTokenStore file = new FileTokenStore(new File(args[1]));
    TokenStore dying = new TokenStore() {
      @Override public @Nullable TokenRecord load() throws IOException {
        return file.load();
      }

      @Override public void save(TokenRecord record) {
        Runtime.getRuntime().halt(EXIT_CODE);
      }

      @Override public void clear() throws IOException {
        file.clear();
      }
    };
    VoiceLinkClient config = VoiceLinkClient.builder().authUrl(args[0]).build();
    TokenManager manager = TokenManager.builder(config).deviceGrant(args[2]).store(dying).build();
    manager.refresh().execute();
    System.exit(1); // not reached: the refresh must end in save
  }
}
