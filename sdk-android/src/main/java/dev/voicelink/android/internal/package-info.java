/**
 * Implementation details of the VoiceLink Android SDK. Not part of the public API: anything here may
 * change or disappear in any release.
 */
@ParametersAreNonnullByDefault
package dev.voicelink.android.internal;

import javax.annotation.ParametersAreNonnullByDefault;
