package dev.voicelink.samples.speaker;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Gives an option the value of an environment variable when the command line leaves it out, for
 * example {@code @EnvDefault("VOICELINK_AUTH_URL")}. Read from the CLI's environment ({@link
 * SpeakerCli#env}, so that tests pass their own) by the default value provider of {@link SpeakerCli}.
 * The command line always wins. Never for secrets: they come from files or their own variables.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.FIELD)
@interface EnvDefault {
  /** The environment variable. */
  String value();
}
