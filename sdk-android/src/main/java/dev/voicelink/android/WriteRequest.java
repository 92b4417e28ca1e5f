package dev.voicelink.android;

import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What one {@code CMD_WRITE} asks to send, checked: {@code data_type} (audio or text), the {@code
 * sample_rate} of audio (16000 unless given), the {@code pers_param} JSON object text if given, and
 * the bytes. Errors name the param.
 */
final class WriteRequest {
  static final int DEFAULT_SAMPLE_RATE = 16000;

  final String dataType;
  final int sampleRate;
  final @Nullable String persParam;
  final byte[] data;

  private WriteRequest(String dataType, int sampleRate, @Nullable String persParam, byte[] data) {
    this.dataType = dataType;
    this.sampleRate = sampleRate;
    this.persParam = persParam;
    this.data = data;
  }

  boolean isText() {
    return dataType.equals("text");
  }

  /**
   * Checks the parsed {@link WriteParams} and the data of {@code message}.
   *
   * @throws IllegalArgumentException naming the param that is missing or wrong
   */
  static WriteRequest of(Map<String, String> params, AgentMessage message) {
    String dataType = params.get("data_type");
    if (dataType == null) {
      throw new IllegalArgumentException("CMD_WRITE param data_type is required: data_type=audio or"
          + " data_type=text");
    }
    if (!dataType.equals("audio") && !dataType.equals("text")) {
      throw new IllegalArgumentException("CMD_WRITE param data_type must be audio or text; was: "
          + dataType);
    }
    String rate = params.get("sample_rate");
    int sampleRate = rate == null ? DEFAULT_SAMPLE_RATE : sampleRate(rate);
    String persParam = params.get("pers_param");
    if (persParam != null) JsonObjects.checkPersParam(persParam, "CMD_WRITE param pers_param");
    byte[] data = message.dataUnsafe();
    if (data == null || data.length == 0) {
      throw new IllegalArgumentException("CMD_WRITE data is required: the " + (dataType.equals("text")
          ? "UTF-8 text" : "audio bytes") + " to send");
    }
    return new WriteRequest(dataType, sampleRate, persParam, data);
  }

  private static int sampleRate(String text) {
    try {
      int rate = Integer.parseInt(text);
      if (rate > 0) return rate;
    } catch (NumberFormatException ignored) {
      // reported below
    }
    throw new IllegalArgumentException("CMD_WRITE param sample_rate must be a positive integer such as"
        + " 16000; was: " + text);
  }
}
