package dev.voicelink.android;

import android.net.ConnectivityManager;
import android.net.NetworkRequest;
import org.robolectric.annotation.Implementation;
import org.robolectric.annotation.Implements;
import org.robolectric.shadows.ShadowConnectivityManager;

/**
 * A ConnectivityManager that refuses network callbacks, as Android 11 and later do once an app has
 * filed too many (its TooManyRequestsException is a RuntimeException apps cannot name).
 */
@Implements(ConnectivityManager.class)
public class RefusingConnectivityManager extends ShadowConnectivityManager {
  @Implementation
  @Override protected void registerNetworkCallback(NetworkRequest request,
      ConnectivityManager.NetworkCallback callback) {
    throw new RuntimeException("Too many NetworkRequests filed");
  }
}
