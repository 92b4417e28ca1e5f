package dev.voicelink.android;

import com.squareup.moshi.JsonDataException;
import com.squareup.moshi.JsonReader;
import com.squareup.moshi.JsonWriter;
import dev.voicelink.auth.TokenRecord;
import java.io.IOException;
import okio.Buffer;

/**
 * The plaintext inside an {@link EncryptedTokenStore} blob: the fields of sdk-core's token file
 * (version 1), so a record reads the same wherever it was kept.
 */
final class TokenRecordCodec {
  static final int VERSION = 1;

  private TokenRecordCodec() {
  }

  static byte[] encode(TokenRecord record) throws IOException {
    Buffer buffer = new Buffer();
    JsonWriter writer = JsonWriter.of(buffer);
    writer.beginObject();
    writer.name("version").value(VERSION);
    writer.name("grant").value(record.grant().wireName());
    writer.name("client_id").value(record.clientId());
    writer.name("token_type").value(record.tokenType());
    writer.name("access_token").value(record.accessToken());
    if (record.refreshToken() != null) writer.name("refresh_token").value(record.refreshToken());
    writer.name("expires_in").value(record.expiresInSeconds());
    writer.name("created_at").value(record.createdAtEpochSeconds());
    writer.name("received_at_ms").value(record.receivedAtEpochMillis());
    writer.endObject();
    writer.close();
    return buffer.readByteArray();
  }

  /** @throws IOException naming the field, if the text is not a version-1 record */
  static TokenRecord decode(byte[] json) throws IOException {
    JsonReader reader = JsonReader.of(new Buffer().write(json));
    TokenRecord.Builder builder = TokenRecord.builder();
    long version = -1;
    try {
      reader.beginObject();
      while (reader.hasNext()) {
        String name = reader.nextName();
        switch (name) {
          case "version":
            version = reader.nextLong();
            break;
          case "grant":
            builder.grant(grant(reader.nextString()));
            break;
          case "client_id":
            builder.clientId(reader.nextString());
            break;
          case "token_type":
            builder.tokenType(reader.nextString());
            break;
          case "access_token":
            builder.accessToken(reader.nextString());
            break;
          case "refresh_token":
            builder.refreshToken(reader.nextString());
            break;
          case "expires_in":
            builder.expiresInSeconds(reader.nextLong());
            break;
          case "created_at":
            builder.createdAtEpochSeconds(reader.nextLong());
            break;
          case "received_at_ms":
            builder.receivedAtEpochMillis(reader.nextLong());
            break;
          default:
            reader.skipValue();
        }
      }
      reader.endObject();
      if (version != VERSION) {
        throw new IOException("token record version " + version + " is not supported; this SDK reads "
            + "version " + VERSION);
      }
      return builder.build();
    } catch (IllegalArgumentException | IllegalStateException | JsonDataException e) {
      throw new IOException("not a token record: " + e.getMessage(), e);
    }
  }

  private static TokenRecord.Grant grant(String wireName) throws IOException {
    for (TokenRecord.Grant grant : TokenRecord.Grant.values()) {
      if (grant.wireName().equals(wireName)) return grant;
    }
    throw new IOException("grant must be device or cloud");
  }
}
