package dev.voicelink.entity;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import okio.Buffer;
import okio.ByteString;

/**
 * Fuzzes resource records (protocol 2.5) through the public API only: {@link RecordSource#fromText} and
 * {@link RecordSource#fromFile} checked by {@link ResourceEncoder}. Property: the size of the resource
 * text, or the documented errors ({@link InvalidResourceException} naming the record, IOException for
 * unreadable bytes), never another exception; text and file of the same bytes agree; what is accepted
 * encodes to the Base64 of the checked text, BOM stripped.
 */
class RecordsFuzzTest {
  /** Small, so the fuzzer reaches the size limit too. */
  private static final long MAX_BYTES = 512;
  private static final ResourceDefinition CONTACTS = ResourceDefinition.builder()
      .name("OS123.contacts").mainField("name").secondaryFields("alias")
      .dimension(Dimension.USER).build();

  private final File file;

  RecordsFuzzTest() throws IOException {
    file = File.createTempFile("records-fuzz", ".jsonl");
    file.deleteOnExit();
  }

  @FuzzTest
  void recordsText(byte[] input) throws IOException {
    String text = new String(input, UTF_8);
    Long fromText = check(RecordSource.fromText(text));
    try (OutputStream out = new FileOutputStream(file)) {
      out.write(input);
    }
    Long fromFile = check(RecordSource.fromFile(file));
    if (fromFile != null) {
      assertThat(fromText).as("text and file of the same valid UTF-8 bytes").isEqualTo(fromFile);
    }
    if (fromText != null) {
      Buffer base64 = new Buffer();
      ResourceEncoder.writeBase64(CONTACTS, RecordSource.fromText(text), MAX_BYTES, base64);
      ByteString decoded = ByteString.decodeBase64(base64.readUtf8());
      assertThat(decoded).isNotNull();
      assertThat((long) decoded.size()).isEqualTo(fromText);
      assertThat(decoded.utf8()).as("the Base64 of the checked text").isEqualTo(resourceText(text));
    }
  }

  /**
   * The resource text as {@link RecordSource} documents it, computed without the SDK: a leading
   * byte-order mark dropped, the lines (a break is \n, \r\n or a lone \r), blank ones skipped,
   * joined by \n.
   */
  private static String resourceText(String text) {
    if (text.startsWith("\uFEFF")) text = text.substring(1);
    StringBuilder out = new StringBuilder();
    for (String line : text.split("\r\n|\n|\r", -1)) {
      boolean blank = true;
      for (int i = 0; i < line.length() && blank; i++) blank = Character.isWhitespace(line.charAt(i));
      if (blank) continue;
      if (out.length() > 0) out.append('\n');
      out.append(line);
    }
    return out.toString();
  }

  /** The size of the checked text, or null when the documented error says why not. */
  private static Long check(RecordSource source) {
    try {
      return ResourceEncoder.check(CONTACTS, source, MAX_BYTES);
    } catch (InvalidResourceException e) {
      assertThat(e.getMessage()).containsAnyOf("OS123.contacts", "records-fuzz"); // names the resource or the file
      return null;
    } catch (IOException e) {
      return null;
    }
  }
}
