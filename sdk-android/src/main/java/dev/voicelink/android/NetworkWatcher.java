package dev.voicelink.android;

import android.content.Context;
import android.net.ConnectivityManager;
import android.net.Network;
import android.net.NetworkCapabilities;
import android.net.NetworkInfo;
import android.net.NetworkRequest;
import dev.voicelink.core.internal.Log;
import java.util.HashSet;
import java.util.Set;

/**
 * Follows whether any network with internet is up (ConnectivityManager callbacks, API 21) and tells
 * the engine when that changes. Losing one of two networks is not a loss.
 */
final class NetworkWatcher extends ConnectivityManager.NetworkCallback {
  private static final String TAG = "VoiceLinkAgent";
  private final ConnectivityManager connectivity;
  private final AgentEngine engine;
  private final Set<Network> available = new HashSet<>();
  private boolean registered;

  NetworkWatcher(Context context, AgentEngine engine) {
    this.connectivity = (ConnectivityManager) context.getSystemService(Context.CONNECTIVITY_SERVICE);
    this.engine = engine;
  }

  /**
   * Starts the engine with whether a network is up now, then registers for changes. In this order a
   * change that comes while registering reaches the engine after its start, never before it (which
   * the start would then undo); a network that went while registering is looked for once more.
   * Without permission, or when the callback is refused, it assumes online: nothing would tell it
   * otherwise.
   */
  void start() {
    engine.start(isOnline());
    if (connectivity == null) return;
    try {
      NetworkRequest request = new NetworkRequest.Builder()
          .addCapability(NetworkCapabilities.NET_CAPABILITY_INTERNET)
          .build();
      connectivity.registerNetworkCallback(request, this);
      registered = true;
      // Android tells a new callback of the networks up as it registers, and of nothing else: the
      // last one gone between the look above and now would never be heard of as lost. A network
      // heard of after this look is told after the loss, so the engine ends online.
      boolean online = isOnline();
      synchronized (available) {
        if (available.isEmpty() && !online) engine.networkLost();
      }
    } catch (SecurityException e) {
      Log.warn(TAG, "no ACCESS_NETWORK_STATE permission: reconnecting ignores network changes", e);
    } catch (RuntimeException e) {
      // Android 11 and later refuse a callback once an app has filed too many
      // (TooManyRequestsException); the Agent works on, as without the permission. No callback
      // will say when a network comes: a start offline must not wait for one for ever.
      Log.warn(TAG, "the network callback was refused (" + e.getMessage() + "): reconnecting"
          + " ignores network changes", e);
      engine.networkAvailable();
    }
  }

  private boolean isOnline() {
    if (connectivity == null) return true;
    try {
      @SuppressWarnings("deprecation") // the API-21 way; its replacement needs API 23
      NetworkInfo active = connectivity.getActiveNetworkInfo();
      return active != null && active.isConnected();
    } catch (SecurityException e) {
      return true; // the registration that follows says so in the log
    }
  }

  void stop() {
    if (!registered) return;
    registered = false;
    try {
      connectivity.unregisterNetworkCallback(this);
    } catch (IllegalArgumentException ignored) {
      // already unregistered
    }
  }

  @Override public void onAvailable(Network network) {
    boolean wasEmpty;
    synchronized (available) {
      wasEmpty = available.isEmpty();
      available.add(network);
    }
    if (wasEmpty) engine.networkAvailable();
  }

  @Override public void onLost(Network network) {
    boolean nowEmpty;
    synchronized (available) {
      nowEmpty = available.remove(network) && available.isEmpty();
    }
    if (nowEmpty) engine.networkLost();
  }
}
