package dev.voicelink.testing;

import java.util.Collections;

/**
 * The console the reference server uses when none is given: one client with one imported device, one
 * tester phone, one account, a user-level contacts resource and an application-level songs resource.
 * These credentials are test values, published on purpose. Constants only: usable from any thread.
 */
public final class DefaultConsole {
  public static final String CLIENT_ID = "vl-speaker-01";
  public static final String CLIENT_SECRET = "vl-speaker-01-secret-4b1d";
  public static final String CLIENT_NAME = "VoiceLink Demo Speaker";
  public static final String DEVICE_ID = "SN-0001-DEMO";
  public static final String TESTER_PHONE = "13800000000";
  public static final String NAMESPACE = "OS123";
  public static final String ACCOUNT_KEY = "0f3c9e8a7b6d5c4e3f2a1b0c9d8e7f6a";
  public static final String APPID = "5f1a2b3c";
  public static final String CONTACTS = "OS123.contacts";
  public static final String SONGS = "OS123.songs";

  private DefaultConsole() {
  }

  static Console.Builder builder() {
    return Console.builder()
        .client(RegisteredClient.create(CLIENT_ID, CLIENT_SECRET, CLIENT_NAME, APPID))
        .deviceIds(CLIENT_ID, DEVICE_ID)
        .testerPhone(TESTER_PHONE)
        .account(Account.create(NAMESPACE, ACCOUNT_KEY, APPID))
        .entity(EntityDefinition.create(CONTACTS, "name", Collections.singletonList("alias"),
            EntityDefinition.USER))
        .entity(EntityDefinition.create(SONGS, "name", Collections.singletonList("alias"),
            EntityDefinition.APPLICATION))
        .accessTokenLifetimeSeconds(8_640_000L)
        .userCodeLifetimeSeconds(120)
        .pollIntervalSeconds(2);
  }
}
