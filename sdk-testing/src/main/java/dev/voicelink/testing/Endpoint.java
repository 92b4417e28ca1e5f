package dev.voicelink.testing;

/**
 * The reference server's endpoints, as targets for {@link Faults#on(Endpoint, Fault)}. Constants only:
 * usable from any thread.
 */
public enum Endpoint {
  /** {@code POST {authUrl}/oauth/ivs/device_code} */
  DEVICE_CODE,
  /** {@code POST {authUrl}/oauth/ivs/token} (device-code polling and device refresh) */
  TOKEN,
  /** {@code POST {authUrl}/oauth/token} (client credentials and cloud refresh) */
  CLOUD_TOKEN,
  /** {@code POST {baseUrl}/v2/voicelink/entity/upload-resource} */
  UPLOAD_RESOURCE,
  /** {@code POST {baseUrl}/v2/voicelink/entity/check-resource} */
  CHECK_RESOURCE,
  /** {@code POST {platformUrl}/tools/upload_entities} */
  UPLOAD_ENTITIES,
  /** The WebSocket upgrade of {@code {baseUrl}/v2/voicelink/interact} */
  INTERACT,
  /** Every page under {@code {authUrl}/verify} */
  VERIFY
}
