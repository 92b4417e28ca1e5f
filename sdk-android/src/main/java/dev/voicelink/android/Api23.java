package dev.voicelink.android;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a class that uses API 23 framework classes and is loaded only on API 23 and later (callers
 * check {@code Build.VERSION.SDK_INT} first). The build's API-21 signature check skips exactly the
 * classes marked so; everything else is still held to API 21.
 */
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.TYPE)
@interface Api23 {
}
