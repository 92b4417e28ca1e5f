package dev.voicelink.android;

import android.net.ConnectivityManager;
import android.net.NetworkInfo;
import android.net.NetworkRequest;
import org.jspecify.annotations.Nullable;
import org.robolectric.annotation.Implementation;
import org.robolectric.annotation.Implements;
import org.robolectric.shadows.ShadowConnectivityManager;
import org.robolectric.shadows.ShadowNetworkInfo;

/**
 * The last network goes while the Agent starts: {@code getActiveNetworkInfo} says connected before the
 * callback is registered and none after, and the callback hears of no network, as Android tells a
 * new callback only of the networks up when it registers.
 */
@Implements(ConnectivityManager.class)
public class NetworkLostDuringRegistrationConnectivityManager extends ShadowConnectivityManager {
  private boolean registered;

  @Implementation
  @Override protected @Nullable NetworkInfo getActiveNetworkInfo() {
    return registered ? null : ShadowNetworkInfo.newInstance(NetworkInfo.DetailedState.CONNECTED,
        ConnectivityManager.TYPE_WIFI, 0, true, NetworkInfo.State.CONNECTED);
  }

  @Implementation
  @Override protected void registerNetworkCallback(NetworkRequest request,
      ConnectivityManager.NetworkCallback callback) {
    registered = true;
    super.registerNetworkCallback(request, callback);
  }
}
