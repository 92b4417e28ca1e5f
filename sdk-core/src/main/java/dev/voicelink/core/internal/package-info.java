/**
 * Implementation details of the VoiceLink SDK. Not part of the public API: anything here may change
 * or disappear in any release.
 */
@ParametersAreNonnullByDefault
package dev.voicelink.core.internal;

import javax.annotation.ParametersAreNonnullByDefault;
