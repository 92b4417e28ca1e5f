package dev.voicelink.testing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Reads the JSON form of a {@link Console}; every error names the JSON path at fault. */
final class ConsoleJson {
  private ConsoleJson() {
  }

  static Console parse(String json) {
    Map<String, Object> root = Json.parseObject(json);
    if (root == null) throw new IllegalArgumentException("console JSON must be a JSON object");
    known(root, "$", "clients", "tester_phones", "accounts", "entities", "lifetimes");
    Console.Builder b = Console.builder();
    for (Map<String, Object> c : objects(root, "clients", "$")) {
      String path = "$.clients[]";
      known(c, path, "client_id", "client_secret", "name", "appid", "device_ids");
      String id = string(c, "client_id", path, true);
      b.client(RegisteredClient.create(id, string(c, "client_secret", path, true), string(c, "name", path, true),
          string(c, "appid", path, false)));
      for (String d : strings(c, "device_ids", path)) b.deviceIds(id, d);
    }
    for (String p : strings(root, "tester_phones", "$")) b.testerPhone(p);
    for (Map<String, Object> a : objects(root, "accounts", "$")) {
      String path = "$.accounts[]";
      known(a, path, "namespace", "account_key", "appid", "dynamic_entity_permission", "ip_whitelist_enabled",
          "ip_whitelist");
      Account account = Account.create(string(a, "namespace", path, true),
          string(a, "account_key", path, true), string(a, "appid", path, true));
      Object permission = a.get("dynamic_entity_permission");
      if (permission != null) account = account.withDynamicEntityPermission(bool(permission, path + ".dynamic_entity_permission"));
      Object ipOn = a.get("ip_whitelist_enabled");
      account = account.withIpWhitelist(ipOn != null && bool(ipOn, path + ".ip_whitelist_enabled"),
          strings(a, "ip_whitelist", path));
      b.account(account);
    }
    for (Map<String, Object> e : objects(root, "entities", "$")) {
      String path = "$.entities[]";
      known(e, path, "res_name", "main_field", "secondary_fields", "dimension");
      b.entity(EntityDefinition.create(string(e, "res_name", path, true), string(e, "main_field", path, true),
          strings(e, "secondary_fields", path), string(e, "dimension", path, true)));
    }
    Object lifetimes = root.get("lifetimes");
    if (lifetimes != null) {
      if (!(lifetimes instanceof Map)) throw new IllegalArgumentException("$.lifetimes must be an object");
      @SuppressWarnings("unchecked") Map<String, Object> l = (Map<String, Object>) lifetimes;
      known(l, "$.lifetimes", "access_token_seconds", "refresh_token_seconds", "user_code_seconds",
          "sms_code_seconds", "poll_interval_seconds", "slow_down");
      Long v;
      if ((v = number(l, "access_token_seconds")) != null) b.accessTokenLifetimeSeconds(v);
      if ((v = number(l, "refresh_token_seconds")) != null) b.refreshTokenLifetimeSeconds(v);
      if ((v = number(l, "user_code_seconds")) != null) b.userCodeLifetimeSeconds(v);
      if ((v = number(l, "sms_code_seconds")) != null) b.smsCodeLifetimeSeconds(v);
      if ((v = number(l, "poll_interval_seconds")) != null) b.pollIntervalSeconds(v);
      Object slow = l.get("slow_down");
      if (slow != null) b.slowDown(bool(slow, "$.lifetimes.slow_down"));
    }
    return b.build();
  }

  /**
   * Refuses a key the console does not know: a misspelt one ({@code device_id} for {@code device_ids})
   * would otherwise leave its setting at the default without a word.
   */
  private static void known(Map<String, Object> m, String path, String... keys) {
    List<String> allowed = Arrays.asList(keys);
    for (String key : m.keySet()) {
      if (!allowed.contains(key)) {
        throw new IllegalArgumentException(path + "." + key + " is not a console setting; " + path
            + " takes " + String.join(", ", allowed));
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> objects(Map<String, Object> m, String key, String path) {
    Object v = m.get(key);
    if (v == null) return Collections.emptyList();
    if (!(v instanceof List)) throw new IllegalArgumentException(path + "." + key + " must be an array");
    List<Map<String, Object>> out = new ArrayList<>();
    for (Object o : (List<Object>) v) {
      if (!(o instanceof Map)) throw new IllegalArgumentException(path + "." + key + "[] must hold objects");
      out.add((Map<String, Object>) o);
    }
    return out;
  }

  @SuppressWarnings("unchecked")
  private static List<String> strings(Map<String, Object> m, String key, String path) {
    Object v = m.get(key);
    if (v == null) return Collections.emptyList();
    if (!(v instanceof List)) throw new IllegalArgumentException(path + "." + key + " must be an array of strings");
    List<String> out = new ArrayList<>();
    for (Object o : (List<Object>) v) {
      if (!(o instanceof String)) throw new IllegalArgumentException(path + "." + key + " must be an array of strings");
      out.add((String) o);
    }
    return out;
  }

  private static @Nullable String string(Map<String, Object> m, String key, String path, boolean required) {
    Object v = m.get(key);
    if (v == null && !required) return null;
    if (!(v instanceof String)) throw new IllegalArgumentException(path + "." + key + " must be a string");
    return (String) v;
  }

  private static boolean bool(Object v, String path) {
    if (!(v instanceof Boolean)) throw new IllegalArgumentException(path + " must be true or false");
    return (Boolean) v;
  }

  private static @Nullable Long number(Map<String, Object> m, String key) {
    Object v = m.get(key);
    if (v == null) return null;
    Long n = Json.wholeNumber(v);
    if (n == null) throw new IllegalArgumentException("$.lifetimes." + key + " must be a whole number");
    return n;
  }
}
