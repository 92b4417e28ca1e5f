package dev.voicelink.android;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.util.Random;
import okio.ByteString;
import okio.Okio;
import org.junit.jupiter.api.Test;

/**
 * The resource of a CMD_SYNC, decoded from the command's bytes as it is read: the same bytes okio's
 * {@code decodeBase64} gives for the same text, at every read, and the same refusals, through the
 * escapes JSON writers use.
 */
class SyncResourceTest {
  private static final String UID = "d41d8cd98f00b204e9800998ecf8427e";

  /** The resource, read whole from its start, in Base64 as okio writes it. */
  static String base64(SyncResource resource) throws IOException {
    return read(resource).base64();
  }

  private static ByteString read(SyncResource resource) throws IOException {
    try (InputStream in = resource.open()) {
      return Okio.buffer(Okio.source(in)).readByteString();
    }
  }

  /** The resource of a CMD_SYNC whose data member is {@code written}, as JSON text has it. */
  private static SyncResource resource(String written) {
    return CommandParams.syncRequest(("{\"param\":{\"id_name\":\"uid\",\"res_name\":\"OS123.contacts\"},"
        + "\"data\":\"" + written + "\"}").getBytes(UTF_8), UID, "5f1a2b3c").resource;
  }

  @Test void decodesWhatOkioDecodesWhateverTheAlphabetSpacesPaddingAndEscapes() throws IOException {
    Random random = new Random(7);
    for (int i = 0; i < 2000; i++) {
      byte[] bytes = new byte[1 + random.nextInt(40)];
      random.nextBytes(bytes);
      String base64 = ByteString.of(bytes).base64();
      if (random.nextBoolean()) base64 = base64.replace('+', '-').replace('/', '_');
      if (random.nextInt(4) == 0) base64 = base64.replace("=", "");
      StringBuilder plain = new StringBuilder();
      StringBuilder written = new StringBuilder();
      for (int j = 0; j < base64.length(); j++) {
        int space = random.nextInt(12);
        if (space == 0) {
          plain.append(' ');
          written.append(' ');
        } else if (space == 1) {
          plain.append('\n');
          written.append("\\n");
        } else if (space == 2) {
          plain.append('\t');
          written.append("\\t");
        }
        char c = base64.charAt(j);
        plain.append(c);
        int escape = random.nextInt(3);
        if (c == '/' && escape == 1) {
          written.append("\\/"); // as Android's org.json writes a slash
        } else if (escape == 2) {
          written.append(String.format("\\u%04x", (int) c));
        } else {
          written.append(c);
        }
      }
      SyncResource resource = resource(written.toString());

      ByteString expected = ByteString.decodeBase64(plain.toString());
      assertThat(expected).as(written.toString()).isEqualTo(ByteString.of(bytes));
      assertThat(read(resource)).as(written.toString()).isEqualTo(expected);
      assertThat(read(resource)).as("read again").isEqualTo(expected);
    }
  }

  @Test void refusesWhatOkioRefusesAndEscapesThatAreNoBase64() {
    String[][] refused = {
        {"QUJD=RA", "QUJD=RA"}, // padding inside
        {"QUJDR", "QUJDR"}, // one symbol left over: six bits, no whole byte
        {"Q===", "Q==="},
        {"QU*D", "QU*D"},
        {"QUJDé", "QUJD\u00e9"},
        {"QU\\bJD", "QU\bJD"},
        {"QU\\fJD", "QU\fJD"},
        {"QU\\u00e9JD", "QU\u00e9JD"},
    };
    for (String[] text : refused) {
      assertThat(ByteString.decodeBase64(text[1])).as(text[1]).isNull();
      SyncResource resource = resource(text[0]);
      assertThatThrownBy(() -> read(resource)).as(text[0])
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("data.data must be Base64 of the resource text");
    }
  }

  /** The established SDK trimmed the text (String.trim()) before decoding it. */
  @Test void controlCharactersAreTakenAtEitherEndAndRefusedBetweenSymbols() throws IOException {
    ByteString abc = ByteString.encodeUtf8("ABC");
    for (String written : new String[] {"\\bQUJD", "QUJD\\f", "QUJD\\u0000", "\\u0001 QUJD \\u001f",
        "QUJD=\\u0000"}) {
      assertThat(read(resource(written))).as(written).isEqualTo(abc);
    }
    for (String written : new String[] {"QU\\u0000JD", "QUJD\\u0000="}) {
      SyncResource resource = resource(written);
      assertThatThrownBy(() -> read(resource)).as(written)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("data.data must be Base64 of the resource text");
    }
  }

  /**
   * As the whole data was parsed by Moshi before: the same refusals of a string that is no JSON, but
   * for one cut right after a backslash, which Moshi called an unterminated escape sequence.
   */
  @Test void aDataStringThatIsCutOffOrWronglyEscapedIsRefusedAsMoshiRefusesIt() {
    String head = "{\"param\":{\"id_name\":\"uid\",\"res_name\":\"OS123.contacts\"},\"data\":";
    String[][] refused = {
        {"\"QUJD", "Unterminated string at path $.data"},
        {"\"QUJD\\", "Unterminated string at path $.data"}, // Moshi: escape sequence
        {"\"QUJD\\u00", "Unterminated escape sequence at path $.data"},
        {"\"QU\\xJD\"}", "Invalid escape sequence: \\x at path $.data"},
        {"\"QU\\u00G1JD\"}", "\\u00G1 at path $.data"},
    };
    for (String[] data : refused) {
      assertThatThrownBy(() -> CommandParams.syncRequest((head + data[0]).getBytes(UTF_8), UID,
          "5f1a2b3c")).as(data[0])
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("CMD_SYNC data must be a JSON object text: " + data[1]);
    }
  }

  /** A member named twice is refused, except after a null (as before): the string is the resource. */
  @Test void theStringDataMemberIsReadWhenANullOneCameFirst() throws IOException {
    SyncResource resource = CommandParams.syncRequest(("{\"param\":{\"id_name\":\"uid\","
        + "\"res_name\":\"OS123.contacts\"},\"data\":null,\"data\":\"QUJD\"}").getBytes(UTF_8), UID,
        "5f1a2b3c").resource;

    assertThat(read(resource)).isEqualTo(ByteString.encodeUtf8("ABC"));
  }

  @Test void aDataMemberThatIsNoStringOrOnlySpacesOrNamedTwiceIsRefusedWithItsPath() {
    assertThatThrownBy(() -> CommandParams.syncRequest(("{\"param\":{\"id_name\":\"uid\","
        + "\"res_name\":\"OS123.contacts\"},\"data\":42}").getBytes(UTF_8), UID, "5f1a2b3c"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("CMD_SYNC data.data must be a string; was a number");
    assertThatThrownBy(() -> resource(" \\n "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("CMD_SYNC data.data is required: the Base64 of the resource text");
    assertThatThrownBy(() -> CommandParams.syncRequest(("{\"data\":\"QUJD\",\"param\":{\"id_name\":"
        + "\"uid\",\"res_name\":\"OS123.contacts\"},\"data\":\"QUJD\"}").getBytes(UTF_8), UID,
        "5f1a2b3c"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("CMD_SYNC data must be a JSON object text: member 'data' appears twice in the"
            + " object at path $.data");
  }

  @Test void saysItsSizeNotItsContent() {
    assertThat(resource("QUJD").toString()).isEqualTo("4 Base64 chars");
  }
}
