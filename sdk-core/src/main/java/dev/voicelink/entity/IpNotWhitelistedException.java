package dev.voicelink.entity;

import org.jspecify.annotations.Nullable;

/**
 * The web API refused the call ({@code code} {@value #CODE}) because the account's IP whitelist is on
 * and the caller's public IP address is not in it. Add the device's public IP address to the whitelist
 * in the console, or turn the whitelist off there.
 *
 * <p>Immutable.
 */
public final class IpNotWhitelistedException extends WebApiException {
  private static final long serialVersionUID = 1L;
  public static final String CODE = "20004";

  public IpNotWhitelistedException(String description, @Nullable String sid) {
    super(CODE, description, sid);
  }

  @Override public String getMessage() {
    return "IP not in whitelist: this device's public IP address is not on the account's IP whitelist;"
        + " add it to the whitelist in the console or turn the whitelist off (" + super.getMessage()
        + ")";
  }
}
