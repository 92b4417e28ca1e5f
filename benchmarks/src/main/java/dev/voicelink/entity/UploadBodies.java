package dev.voicelink.entity;

import java.io.IOException;
import okhttp3.RequestBody;

/**
 * Reaches the form body that {@link EntityWebApi#uploadResource} sends, so that the encoding can be
 * measured without the HTTP call around it. Lives in the SDK's package (on the benchmark's class path
 * only) because the body is not public API.
 */
public final class UploadBodies {
  private UploadBodies() {
  }

  /** Exactly the body {@code api.uploadResource(request)} would send: records checked and measured. */
  public static RequestBody of(EntityWebApi api, UploadRequest request) throws IOException {
    return api.uploadBody(request);
  }
}
