package dev.voicelink.entity;

import dev.voicelink.core.ServerRefusalException;
import org.jspecify.annotations.Nullable;

/**
 * The dynamic entity web API answered with a {@code code} other than {@code "00000"}. Keeps the
 * server's {@link #code()}, {@link #description() desc} and {@link #sid()}; the codes are listed in the
 * web API error table of the documentation. {@link IpNotWhitelistedException} is the {@code 20004}
 * case.
 *
 * <p>Immutable.
 */
public class WebApiException extends ServerRefusalException {
  private static final long serialVersionUID = 1L;

  public WebApiException(String code, String description, @Nullable String sid) {
    super(code, description, sid);
  }
}
