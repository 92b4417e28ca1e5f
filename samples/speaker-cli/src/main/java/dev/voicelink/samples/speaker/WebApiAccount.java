package dev.voicelink.samples.speaker;

import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.entity.EntityWebApi;
import java.io.File;
import java.io.IOException;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * {@code --base-url}, {@code --namespace} and {@code --account-key-file}, shared by the commands that
 * sign web API requests ({@code sync}, {@code check}). The account key never comes from an argument.
 */
final class WebApiAccount {
  @EnvDefault("VOICELINK_BASE_URL")
  @Option(names = "--base-url", required = true, paramLabel = "URL",
      description = "web API address (base_url; default: $VOICELINK_BASE_URL)")
  String baseUrl;
  @Option(names = "--namespace", required = true, paramLabel = "NAMESPACE",
      description = "account namespace, e.g. OS123")
  String namespace;
  @Option(names = "--account-key-file", paramLabel = "FILE",
      description = "file holding the account key; - reads it from stdin")
  File accountKeyFile;

  /** The account key, from the file or {@code VOICELINK_ACCOUNT_KEY}; read before anything is sent. */
  String accountKey(Map<String, String> env) throws IOException {
    return SecretInput.read(accountKeyFile, "--account-key-file", "VOICELINK_ACCOUNT_KEY", env);
  }

  /** {@code builder} at the web API address. */
  VoiceLinkClient.Builder at(VoiceLinkClient.Builder builder) {
    return builder.baseUrl(baseUrl);
  }

  /** A web API of {@code client} that signs with this account. */
  EntityWebApi.Builder api(VoiceLinkClient client, String accountKey) {
    return EntityWebApi.builder(client).namespace(namespace).accountKey(accountKey);
  }
}
