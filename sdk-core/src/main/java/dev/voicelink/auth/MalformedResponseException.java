package dev.voicelink.auth;

import java.io.IOException;

/**
 * A success answer whose content breaks the spec (a field missing, of the wrong type or out of
 * range). Unlike a transport failure it cannot get better by asking again, so a flow ends on it at
 * once. The message names the field.
 */
final class MalformedResponseException extends IOException {
  private static final long serialVersionUID = 1L;

  MalformedResponseException(String message) {
    super(message);
  }
}
