/**
 * The VoiceLink reference server: a strict, in-process stand-in for the whole platform, for tests and for
 * running devices before a platform account exists. Start with {@link dev.voicelink.testing.ReferenceServer};
 * see docs/reference-server.md. Independent of voicelink-core by design.
 *
 * <p>Parameters and return values are non-null unless annotated {@code @Nullable}.
 */
@NullMarked
package dev.voicelink.testing;

import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;
