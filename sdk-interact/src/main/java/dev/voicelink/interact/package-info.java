/**
 * The interaction channel: one WebSocket per device over which text and audio are written and
 * recognition results come back, with dynamic entities applied when the write carries a {@code
 * pers_param}. The message set is documented in {@code docs/interaction-channel.md}.
 *
 * <p>Parameters and return values are non-null unless annotated {@code @Nullable}.
 */
@NullMarked
package dev.voicelink.interact;

import org.jspecify.annotations.NullMarked;
