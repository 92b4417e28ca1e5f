/**
 * Device authorization (OAuth 2.0 device flow), cloud tokens (client credentials), and the token
 * lifecycle: refresh, rotation, storage.
 *
 * <p>Parameters and return values are non-null unless annotated {@code @Nullable}.
 */
@NullMarked
package dev.voicelink.auth;

import org.jspecify.annotations.NullMarked;
