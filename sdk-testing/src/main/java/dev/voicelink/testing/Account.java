package dev.voicelink.testing;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * An account of the skill-studio console: namespace, account key, appid, the dynamic-entity permission
 * and the IP whitelist. Immutable; toString shows a key fingerprint only. Added with {@link
 * Console.Builder#account} or {@link Console#putAccount}.
 */
public final class Account {
  private final String namespace;
  private final String accountKey;
  private final String appid;
  private final boolean dynamicEntityPermission;
  private final boolean ipWhitelistEnabled;
  private final List<String> ipWhitelist;

  private Account(String namespace, String accountKey, String appid, boolean permission, boolean ipOn,
      List<String> ips) {
    this.namespace = Console.requireNonEmpty("namespace", namespace);
    this.accountKey = Console.requireNonEmpty("accountKey", accountKey);
    this.appid = Console.requireNonEmpty("appid", appid);
    if (namespace.indexOf('.') >= 0) throw new IllegalArgumentException("namespace must not contain '.'; was: " + namespace);
    this.dynamicEntityPermission = permission;
    this.ipWhitelistEnabled = ipOn;
    this.ipWhitelist = Collections.unmodifiableList(new ArrayList<>(ips));
  }

  /** An account with the dynamic-entity permission on and the IP whitelist off. */
  public static Account create(String namespace, String accountKey, String appid) {
    return new Account(namespace, accountKey, appid, true, false, Collections.<String>emptyList());
  }

  public Account withDynamicEntityPermission(boolean enabled) {
    return new Account(namespace, accountKey, appid, enabled, ipWhitelistEnabled, ipWhitelist);
  }

  public Account withIpWhitelist(boolean enabled, List<String> ips) {
    return new Account(namespace, accountKey, appid, dynamicEntityPermission, enabled, ips);
  }

  public String namespace() {
    return namespace;
  }

  public String accountKey() {
    return accountKey;
  }

  public String appid() {
    return appid;
  }

  public boolean dynamicEntityPermission() {
    return dynamicEntityPermission;
  }

  public boolean ipWhitelistEnabled() {
    return ipWhitelistEnabled;
  }

  public List<String> ipWhitelist() {
    return ipWhitelist;
  }

  /** A short, non-reversible fingerprint of the account key, for printing. */
  public String accountKeyFingerprint() {
    return Ids.fingerprint(accountKey);
  }

  @Override public String toString() {
    return "Account{namespace=" + namespace + ", appid=" + appid + ", accountKey=#" + accountKeyFingerprint()
        + ", dynamicEntityPermission=" + dynamicEntityPermission + ", ipWhitelist="
        + (ipWhitelistEnabled ? ipWhitelist : "off") + "}";
  }
}
