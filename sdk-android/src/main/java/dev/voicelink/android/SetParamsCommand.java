package dev.voicelink.android;

import static dev.voicelink.android.AgentConstants.CMD_SET_PARAMS;
import static dev.voicelink.android.AgentConstants.ERROR_INVALID_PARAMS;
import static dev.voicelink.android.AgentConstants.KEY_CMD;

import org.jspecify.annotations.Nullable;

/**
 * CMD_SET_PARAMS: keeps the {@code pers_param} of later voice writes. It has no reply; bad params get
 * an {@code EVENT_ERROR}. Confined to the worker thread.
 */
final class SetParamsCommand {
  private final @Nullable String configured;
  /** Set by CMD_SET_PARAMS: null if never set, "" once cleared. */
  private @Nullable String persParam;
  private final EventEmitter out;

  /** {@code configured}: the config's {@code audioparams.pers_param}, or null. */
  SetParamsCommand(@Nullable String configured, EventEmitter out) {
    this.configured = configured;
    this.out = out;
  }

  void handle(AgentMessage message) {
    try {
      String given = CommandParams.setParamsPersParam(message.params());
      if (given != null) persParam = given;
    } catch (IllegalArgumentException e) {
      out.error(ERROR_INVALID_PARAMS, e.getMessage(), EventData.of(KEY_CMD, CMD_SET_PARAMS));
    }
  }

  /**
   * The {@code pers_param} of a voice write that names none: the last CMD_SET_PARAMS, else the
   * config's; null when there is none or it was cleared. Text writes never get one (protocol 4.10).
   */
  @Nullable String audioPersParam() {
    if (persParam == null) return configured;
    return persParam.isEmpty() ? null : persParam;
  }
}
