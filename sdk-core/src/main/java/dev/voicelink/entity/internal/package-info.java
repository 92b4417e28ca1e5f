/**
 * Implementation details of dynamic entities. Not part of the public API: anything here may change or
 * disappear in any release.
 */
@NullMarked
package dev.voicelink.entity.internal;

import org.jspecify.annotations.NullMarked;
