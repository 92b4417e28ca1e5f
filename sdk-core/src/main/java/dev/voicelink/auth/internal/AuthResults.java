package dev.voicelink.auth.internal;

import dev.voicelink.auth.DeviceCode;
import dev.voicelink.auth.DeviceFlowOutcome;
import dev.voicelink.auth.TokenRecord;
import dev.voicelink.core.internal.Seam;
import org.jspecify.annotations.Nullable;

/** Makes the authorization results for {@code voicelink-fixtures}. Not API. */
public interface AuthResults {
  Seam<AuthResults> SEAM = new Seam<>(DeviceFlowOutcome.class);

  DeviceCode deviceCode(String verificationUri, String userCode, long intervalMillis,
      long expiresInSeconds, String deviceCode, long receivedAtNanos);

  DeviceFlowOutcome authorized(TokenRecord token);

  DeviceFlowOutcome ended(DeviceFlowOutcome.Kind kind, @Nullable Exception failure);
}
