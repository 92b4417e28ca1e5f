/**
 * Implementation details of the interaction channel. Not part of the public API: anything here may
 * change or disappear in any release.
 */
@NullMarked
package dev.voicelink.interact.internal;

import org.jspecify.annotations.NullMarked;
