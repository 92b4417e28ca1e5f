/**
 * The command-and-event Agent of VoiceLink on Android: create an {@link dev.voicelink.android.Agent}
 * from a config text, send it {@link dev.voicelink.android.AgentMessage}s and receive {@link
 * dev.voicelink.android.AgentEvent}s on the main thread.
 */
@NullMarked
package dev.voicelink.android;

import org.jspecify.annotations.NullMarked;
