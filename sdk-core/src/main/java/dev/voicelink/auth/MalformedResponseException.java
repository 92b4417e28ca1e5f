package dev.voicelink.auth;

import java.io.IOException;

/**
 * A success answer whose content breaks the spec (a field missing, of the wrong type or out of
 * range; the message names the field), or an answer in the 4xx range to a device flow's request that
 * is no OAuth answer at all (a web server's 404 page). Unlike a transport failure it cannot get better by
 * asking again, so a flow ends on it at once.
 */
final class MalformedResponseException extends IOException {
  private static final long serialVersionUID = 1L;

  MalformedResponseException(String message) {
    super(message);
  }

  MalformedResponseException(String message, Throwable cause) {
    super(message, cause);
  }
}
