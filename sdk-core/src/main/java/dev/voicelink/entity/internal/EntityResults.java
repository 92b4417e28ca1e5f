package dev.voicelink.entity.internal;

import dev.voicelink.core.internal.Seam;
import dev.voicelink.entity.CheckResult;
import dev.voicelink.entity.UploadReceipt;

/** Makes the web API results for {@code voicelink-fixtures}. Not API. */
public interface EntityResults {
  Seam<EntityResults> SEAM = new Seam<>(UploadReceipt.class);

  UploadReceipt uploadReceipt(String sid, String csid, long uploadedAtMillis, long uploadedAtNanos);

  CheckResult checkResult(String sid, String csid, String reply, long error);
}
