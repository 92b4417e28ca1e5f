package dev.voicelink.interact;

import com.squareup.moshi.JsonDataException;
import com.squareup.moshi.JsonReader;
import dev.voicelink.core.internal.JsonText;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import okio.Buffer;

/**
 * The interaction channel's wire format (docs/interaction-channel.md): reads the server's text frames
 * and writes the client's. Knows nothing of sockets or connection state. Stateless and thread-safe.
 */
final class InteractionCodec {
  private InteractionCodec() {
  }

  /** One text frame from the server, read strictly; unknown members are skipped. */
  static final class Message {
    @Nullable String type;
    @Nullable String uid;
    /** The write it answers; 0 when the frame has none (or {@code null}: an error about no write). */
    int seq;
    String text = "";
    String code = "";
    String desc = "";
    final List<RecognizedEntity> entities = new ArrayList<>();
  }

  /** Reads a server frame. Throws IOException (never a runtime exception) when it is not a message. */
  static Message parse(String frame) throws IOException {
    Message m = new Message();
    JsonReader reader = JsonReader.of(new Buffer().writeUtf8(frame));
    try {
      reader.beginObject();
      while (reader.hasNext()) {
        switch (reader.nextName()) {
          case "type": m.type = reader.nextString(); break;
          case "uid": m.uid = reader.nextString(); break;
          case "seq": m.seq = readSeq(reader); break;
          case "text": m.text = reader.nextString(); break;
          case "code": m.code = readScalar(reader); break;
          case "desc": m.desc = reader.nextString(); break;
          case "entities": readEntities(reader, m.entities); break;
          default: reader.skipValue();
        }
      }
      reader.endObject();
    } catch (JsonDataException e) {
      throw new IOException(e.getMessage(), e);
    }
    return m;
  }

  /** The header of a text ({@code text} non-null) or audio ({@code sampleRate > 0}) write. */
  static String writeHeader(int seq, String dataType, @Nullable String text, int sampleRate,
      @Nullable String persParam) {
    JsonText writer = new JsonText().beginObject();
    writer.name("type").value("write");
    writer.name("data_type").value(dataType);
    if (text != null) writer.name("text").value(text);
    if (sampleRate > 0) writer.name("sample_rate").value(sampleRate);
    if (persParam != null) writer.name("pers_param").value(persParam);
    writer.name("seq").value(seq);
    return writer.endObject().text();
  }

  /** The end marker of audio write {@code seq}. */
  static String endMessage(int seq) {
    return "{\"type\":\"end\",\"seq\":" + seq + "}";
  }

  /** {@code seq} is {@code null} in an error about a frame that had none. */
  private static int readSeq(JsonReader reader) throws IOException {
    if (reader.peek() == JsonReader.Token.NULL) {
      reader.nextNull();
      return 0;
    }
    return reader.nextInt();
  }

  private static String readScalar(JsonReader reader) throws IOException {
    return reader.peek() == JsonReader.Token.NUMBER
        ? String.valueOf(reader.nextLong())
        : reader.nextString();
  }

  private static void readEntities(JsonReader reader, List<RecognizedEntity> into)
      throws IOException {
    reader.beginArray();
    while (reader.hasNext()) {
      String resName = "";
      String value = "";
      String matched = "";
      reader.beginObject();
      while (reader.hasNext()) {
        switch (reader.nextName()) {
          case "res_name": resName = reader.nextString(); break;
          case "value": value = reader.nextString(); break;
          case "matched": matched = reader.nextString(); break;
          default: reader.skipValue();
        }
      }
      reader.endObject();
      into.add(new RecognizedEntity(resName, value, matched));
    }
    reader.endArray();
  }
}
