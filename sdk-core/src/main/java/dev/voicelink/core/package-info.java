/**
 * Plumbing shared by every VoiceLink feature: configuration of the platform addresses, time and
 * scheduling that tests can control, the error hierarchy, and the logging hook.
 *
 * <p>Parameters and return values are non-null unless annotated {@code @Nullable}.
 */
@NullMarked
package dev.voicelink.core;

import org.jspecify.annotations.NullMarked;
