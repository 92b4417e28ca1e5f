/**
 * Implementation details of the VoiceLink SDK. Not part of the public API: anything here may change
 * or disappear in any release.
 */
@NullMarked
package dev.voicelink.core.internal;

import org.jspecify.annotations.NullMarked;
