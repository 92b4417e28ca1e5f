package dev.voicelink.samples.speaker;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Gives an option the value of an environment variable when the command line leaves it out, for
 * example {@code @EnvDefault("VOICELINK_AUTH_URL")}: the one way an option of speaker-cli gets a
 * default from the environment. Read from the CLI's environment ({@link SpeakerCli#env}, so that tests
 * pass their own) by the default value provider of {@link SpeakerCli}. The command line always wins;
 * a required option is satisfied by the variable, and when both are missing the message names it. The
 * option's description names the variable too (a test checks that it does). Never for secrets: they
 * come from files, standard input or their own variables ({@link SecretInput}).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.FIELD)
@interface EnvDefault {
  /** The environment variable. */
  String value();
}
