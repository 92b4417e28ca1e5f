package dev.voicelink.auth;

import dev.voicelink.core.internal.JsonText;
import java.io.IOException;

/** The versioned JSON form of a {@link TokenRecord} that stores keep: {@link TokenRecord#toStorageJson()}. */
final class TokenRecordStorage {
  /** The version of the format this SDK writes and reads. */
  static final int STORAGE_VERSION = 1;

  private TokenRecordStorage() {
  }

  static String write(TokenRecord record) {
    JsonText writer = new JsonText();
    writer.beginObject();
    boolean standard = record.dialect() == TokenRecord.Dialect.STANDARD;
    writer.name("version").value(STORAGE_VERSION);
    writer.name("grant").value(record.grant().wireName());
    if (standard) {
      writer.name("dialect").value(record.dialect().wireName());
      if (record.issuer() != null) writer.name("issuer").value(record.issuer());
      writer.name("token_endpoint").value(record.tokenEndpoint());
      if (record.revocationEndpoint() != null) {
        writer.name("revocation_endpoint").value(record.revocationEndpoint());
      }
      writer.name("token_endpoint_auth_method").value(record.clientAuthentication().wireName());
      if (record.scope() != null) writer.name("scope").value(record.scope());
      if (record.idToken() != null) writer.name("id_token").value(record.idToken());
    }
    writer.name("client_id").value(record.clientId());
    writer.name("token_type").value(record.tokenType());
    writer.name("access_token").value(record.accessToken());
    if (record.refreshToken() != null) writer.name("refresh_token").value(record.refreshToken());
    writer.name("expires_in").value(record.expiresInSeconds());
    writer.name("created_at").value(record.createdAtEpochSeconds());
    writer.name("received_at_ms").value(record.receivedAtEpochMillis());
    writer.endObject();
    return writer.text();
  }

  static TokenRecord read(String json) throws IOException {
    WireJson wire = WireJson.parse(json);
    if (wire == null) throw new IOException("not a JSON object");
    long version = wire.number("version", -1);
    if (version == -1) throw new IOException("no version");
    if (version != STORAGE_VERSION) {
      throw new IOException("version " + version + " is not supported; this SDK reads version "
          + STORAGE_VERSION);
    }
    String grantName = wire.string("grant");
    TokenRecord.Grant grant = grantName == null ? null : TokenRecord.Grant.fromWireName(grantName);
    if (grant == null) throw new IOException("grant must be device or cloud");
    try {
      TokenRecord.Builder builder = TokenRecord.builder();
      String dialectName = wire.string("dialect");
      if (dialectName != null && !dialectName.equals(TokenRecord.Dialect.PLATFORM.wireName())) {
        if (!dialectName.equals(TokenRecord.Dialect.STANDARD.wireName())) {
          throw new IOException("dialect must be platform or standard; was: " + dialectName);
        }
        String method = required(wire, "token_endpoint_auth_method");
        OAuthServer.ClientAuthentication authentication =
            OAuthServer.ClientAuthentication.fromWireName(method);
        if (authentication == null) {
          throw new IOException("token_endpoint_auth_method must be none, client_secret_basic or"
              + " client_secret_post; was: " + method);
        }
        builder.standard(wire.string("issuer"), required(wire, "token_endpoint"), authentication)
            .revocationEndpoint(wire.string("revocation_endpoint"))
            .scope(wire.string("scope"))
            .idToken(wire.string("id_token"));
      }
      return builder
          .grant(grant)
          .clientId(required(wire, "client_id"))
          .tokenType(required(wire, "token_type"))
          .accessToken(required(wire, "access_token"))
          .refreshToken(wire.string("refresh_token"))
          .expiresInSeconds(requiredNumber(wire, "expires_in"))
          .createdAtEpochSeconds(requiredNumber(wire, "created_at"))
          .receivedAtEpochMillis(requiredNumber(wire, "received_at_ms"))
          .build();
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw new IOException(e.getMessage(), e);
    }
  }

  private static String required(WireJson json, String name) throws IOException {
    String value = json.string(name);
    if (value == null) throw new IOException(name + " is missing");
    return value;
  }

  private static long requiredNumber(WireJson json, String name) throws IOException {
    long value = json.number(name, Long.MIN_VALUE + 1);
    if (value == Long.MIN_VALUE + 1) throw new IOException(name + " is missing");
    if (value == Long.MIN_VALUE) throw new IOException(name + " is not a whole number");
    return value;
  }
}
