package dev.voicelink.testing;

/**
 * Turns the audio of one interaction-channel write into text. The reference server does no speech
 * recognition of its own: the default recognizer returns an empty text. Tests plug in their own to make
 * audio writes produce text (and so dynamic-entity matches). Called on a server thread, one call at a time
 * per connection.
 */
public interface SpeechRecognizer {
  /**
   * @param audio the bytes of all binary frames of the write, in order
   * @param sampleRate the {@code sample_rate} of the write
   * @return the recognized text, never null
   */
  String recognize(byte[] audio, int sampleRate);
}
