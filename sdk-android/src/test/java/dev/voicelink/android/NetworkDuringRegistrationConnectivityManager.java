package dev.voicelink.android;

import android.net.ConnectivityManager;
import android.net.NetworkInfo;
import android.net.NetworkRequest;
import org.robolectric.annotation.Implementation;
import org.robolectric.annotation.Implements;
import org.robolectric.shadows.ShadowConnectivityManager;
import org.robolectric.shadows.ShadowNetwork;

/**
 * A network that comes up while the Agent starts: the callback hears of it (Android delivers
 * {@code onAvailable} on its own thread, possibly before {@code registerNetworkCallback} returns),
 * while the older {@code getActiveNetworkInfo} still answers "none", as it may for a moment, since
 * the two are not kept in step.
 */
@Implements(ConnectivityManager.class)
public class NetworkDuringRegistrationConnectivityManager extends ShadowConnectivityManager {
  @Implementation
  @Override protected NetworkInfo getActiveNetworkInfo() {
    return null;
  }

  @Implementation
  @Override protected void registerNetworkCallback(NetworkRequest request,
      ConnectivityManager.NetworkCallback callback) {
    super.registerNetworkCallback(request, callback);
    callback.onAvailable(ShadowNetwork.newInstance(1));
  }
}
