package dev.voicelink.samples.speaker;

import dev.voicelink.entity.ResourceEncoder;
import picocli.CommandLine.Option;

/**
 * {@code --max-resource-bytes}, shared by the commands that upload a file of records: the SDK refuses a
 * larger resource text before sending anything, and this raises or lowers that limit.
 */
final class ResourceLimit {
  @Option(names = "--max-resource-bytes", paramLabel = "BYTES",
      description = "largest resource text to send, in bytes (default ${DEFAULT-VALUE}, 32 MiB); a larger"
          + " file is refused before anything is sent")
  long maxResourceBytes = ResourceEncoder.DEFAULT_MAX_RESOURCE_BYTES;

  /** The limit, checked before anything is sent. */
  long bytes() {
    if (maxResourceBytes <= 0) {
      throw new IllegalArgumentException("--max-resource-bytes must be a positive number of bytes; was: "
          + maxResourceBytes);
    }
    return maxResourceBytes;
  }

  /** The SDK's message about a resource over the limit, with the limit named as this CLI's option. */
  static String inCliTerms(String sdkMessage) {
    return sdkMessage.replace("raise maxResourceBytes", "raise --max-resource-bytes");
  }
}
