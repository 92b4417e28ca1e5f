package dev.voicelink.core.internal;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Code that uses API that Android 21 lacks, reached only behind a guard that catches the {@link
 * LinkageError} where it is missing. The API-21 signature check (animal-sniffer, parent POM) skips
 * it; everything else stays checked.
 */
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.TYPE, ElementType.METHOD})
@interface GuardedApi {
}
