/**
 * Implementation details of the VoiceLink Android SDK. Not public API: anything here may change or
 * disappear in any release without notice. Apps must not use these types directly.
 */
@NullMarked
package dev.voicelink.android.internal;

import org.jspecify.annotations.NullMarked;
