/**
 * Dynamic entities: describe a resource ({@link dev.voicelink.entity.ResourceDefinition}), give its
 * records ({@link dev.voicelink.entity.RecordSource}), upload them through the signed web API ({@link
 * dev.voicelink.entity.EntityWebApi}) or the platform tools endpoint ({@link
 * dev.voicelink.entity.PlatformToolsClient}), check that the upload was processed, and activate it with
 * a {@link dev.voicelink.entity.PersParam}.
 *
 * <p>Every input is checked before anything is sent: a resource name without its namespace, a record
 * that lacks a defined field, invalid UTF-8 or a dimension that does not match the definition fail at
 * once with a message that names the problem.
 *
 * <p>Parameters and return values are non-null unless annotated {@code @Nullable}.
 */
@NullMarked
package dev.voicelink.entity;

import org.jspecify.annotations.NullMarked;
