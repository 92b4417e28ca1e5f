package dev.voicelink.samples.app;

import android.content.Context;
import dev.voicelink.android.EncryptedTokenStore;
import dev.voicelink.auth.TokenStore;
import okhttp3.OkHttpClient;
import org.jspecify.annotations.Nullable;

/**
 * What the sample keeps for the life of its process, whichever Activity is on screen: the app's one
 * {@link OkHttpClient} and the device's saved sign-in, an {@link EncryptedTokenStore} in the app's
 * no-backup directory. An app would hold these in its {@code Application}; the sample keeps them
 * here so that its tests can end the "process" and start a new one (docs/lifecycle.md).
 *
 * <p>Thread-safe; {@link #get} does no I/O, so the main thread may call it. Nothing here needs closing:
 * the VoiceLink clients derived from {@link #http()} are closed by their Activity, and the store holds
 * no open file.
 */
final class SampleProcess {
  private static @Nullable SampleProcess current;

  private final OkHttpClient http = new OkHttpClient();
  private final TokenStore signIn;

  private SampleProcess(TokenStore signIn) {
    this.signIn = signIn;
  }

  static synchronized SampleProcess get(Context context) {
    if (current == null) current = new SampleProcess(encryptedStore(context));
    return current;
  }

  /**
   * Starts the process's objects with {@code signIn} as the store of the sign-in, as {@link #get}
   * would with {@link #encryptedStore}: tests give that store behind one that notes its calls.
   */
  static synchronized void start(TokenStore signIn) {
    current = new SampleProcess(signIn);
  }

  /** Forgets everything held in memory, as the process's death does; what is on disk stays. */
  static synchronized void end() {
    current = null;
  }

  /**
   * The device's sign-in store: the {@link EncryptedTokenStore} named {@code sample-sign-in}. Making
   * it does no I/O (the token manager reads and writes it on its own threads), and two made alike are
   * equal, so that the token managers of one store hear each other.
   */
  static TokenStore encryptedStore(Context context) {
    return EncryptedTokenStore.create(context.getApplicationContext(), "sample-sign-in");
  }

  /** The app's HTTP client: VoiceLink clients derive theirs from it and never shut it down. */
  OkHttpClient http() {
    return http;
  }

  /** Where the device's token record is kept across restarts, encrypted with a Keystore key. */
  TokenStore signIn() {
    return signIn;
  }
}
