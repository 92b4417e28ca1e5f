/**
 * Implementation details of device authorization. Not part of the public API: anything here may
 * change or disappear in any release.
 */
@NullMarked
package dev.voicelink.auth.internal;

import org.jspecify.annotations.NullMarked;
