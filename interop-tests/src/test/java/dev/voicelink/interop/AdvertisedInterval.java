package dev.voicelink.interop;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import org.springframework.http.server.ServletServerHttpResponse;
import org.springframework.security.core.Authentication;
import org.springframework.security.oauth2.core.endpoint.OAuth2DeviceAuthorizationResponse;
import org.springframework.security.oauth2.core.http.converter.OAuth2DeviceAuthorizationResponseHttpMessageConverter;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2DeviceAuthorizationRequestAuthenticationToken;
import org.springframework.security.web.authentication.AuthenticationSuccessHandler;

/**
 * The device authorization answer with an {@code interval} (RFC 8628 section 3.2), written by the server's
 * own converter. Out of the box the server sends none, which tells a device to poll every 5 seconds; tests
 * that poll against the real server advertise a shorter one. Everything else is as the server's own answer:
 * the verification URIs are built from the address the device called.
 */
final class AdvertisedInterval implements AuthenticationSuccessHandler {
  private final Duration interval;
  private final String verificationPath;
  private final OAuth2DeviceAuthorizationResponseHttpMessageConverter converter =
      new OAuth2DeviceAuthorizationResponseHttpMessageConverter();

  AdvertisedInterval(Duration interval, String verificationPath) {
    this.interval = interval;
    this.verificationPath = verificationPath;
  }

  @Override public void onAuthenticationSuccess(HttpServletRequest request, HttpServletResponse response,
      Authentication authentication) throws IOException {
    OAuth2DeviceAuthorizationRequestAuthenticationToken issued =
        (OAuth2DeviceAuthorizationRequestAuthenticationToken) authentication;
    String verificationUri =
        request.getScheme() + "://" + request.getServerName() + ":" + request.getServerPort() + verificationPath;
    OAuth2DeviceAuthorizationResponse answer = OAuth2DeviceAuthorizationResponse
        .with(issued.getDeviceCode(), issued.getUserCode())
        .verificationUri(verificationUri)
        .verificationUriComplete(verificationUri + "?user_code=" + issued.getUserCode().getTokenValue())
        .interval(interval.getSeconds())
        .build();
    converter.write(answer, null, new ServletServerHttpResponse(response));
  }
}
