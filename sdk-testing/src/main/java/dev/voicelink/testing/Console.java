package dev.voicelink.testing;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * What a developer would configure in the platform's consoles: OAuth clients and their imported device
 * IDs, the tester phone whitelist, accounts (namespace, account key, dynamic-entity permission, IP
 * whitelist), entity definitions, and the lifetimes the authorization service hands out.
 *
 * <p>Built with {@link #builder()}, read from JSON with {@link #fromJson(String)}, or taken as
 * {@link #defaults()}. A running server's console ({@code server.console()}) may be changed at any time
 * from any thread; every request sees a consistent snapshot of each value it reads.
 *
 * <p>Names read as MockWebServer's do: {@code set…}, {@code put…} (add or replace by key), {@code
 * add…}, {@code import…} and {@code remove…} change the console; {@code get…} and {@code is…} read it.
 * The values it holds are {@link RegisteredClient}, {@link Account} and {@link EntityDefinition}.
 */
public final class Console {
  /** The statuses of authorization errors: at most one of them is on. */
  private static final Set<PlatformVariant> AUTH_ERROR_STATUSES = Collections.unmodifiableSet(EnumSet.of(
      PlatformVariant.AUTH_ERRORS_HTTP_200, PlatformVariant.AUTH_ERRORS_HTTP_401,
      PlatformVariant.AUTH_ERRORS_HTTP_503));

  private final Map<String, RegisteredClient> clients = new LinkedHashMap<>();
  private final Map<String, Set<String>> deviceIds = new LinkedHashMap<>();
  private final Set<String> testerPhones = new LinkedHashSet<>();
  private final Map<String, Account> accounts = new LinkedHashMap<>();
  private final Map<String, EntityDefinition> entities = new LinkedHashMap<>();
  private long accessTokenLifetimeSeconds;
  private long refreshTokenLifetimeSeconds;
  private long userCodeLifetimeSeconds;
  private long smsCodeLifetimeSeconds;
  private long pollIntervalSeconds;
  private boolean slowDown;
  private final EnumSet<PlatformVariant> variants = EnumSet.noneOf(PlatformVariant.class);

  private Console(Builder b) {
    for (RegisteredClient c : b.clients) putClient(c);
    for (String[] d : b.devices) importDeviceId(d[0], d[1]);
    for (String p : b.phones) addTesterPhone(p);
    for (Account a : b.accounts) putAccount(a);
    for (EntityDefinition e : b.entities) putEntity(e);
    accessTokenLifetimeSeconds = b.accessTokenLifetimeSeconds;
    refreshTokenLifetimeSeconds = b.refreshTokenLifetimeSeconds;
    userCodeLifetimeSeconds = b.userCodeLifetimeSeconds;
    smsCodeLifetimeSeconds = b.smsCodeLifetimeSeconds;
    pollIntervalSeconds = b.pollIntervalSeconds;
    slowDown = b.slowDown;
    for (PlatformVariant v : b.variants) setVariant(v, true);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The built-in console described by {@link DefaultConsole}. */
  public static Console defaults() {
    return DefaultConsole.builder().build();
  }

  /** Reads a console from its JSON form (see docs/reference-server.md). */
  public static Console fromJson(String json) {
    return ConsoleJson.parse(json);
  }

  public static Console fromFile(File file) throws IOException {
    return fromJson(new String(Files.readAllBytes(file.toPath()), StandardCharsets.UTF_8));
  }

  // ---- mutation (thread-safe) ----

  /** Adds a client or replaces the client with the same client_id. */
  public synchronized void putClient(RegisteredClient client) {
    clients.put(client.clientId(), client);
    if (!deviceIds.containsKey(client.clientId())) deviceIds.put(client.clientId(), new LinkedHashSet<String>());
  }

  /** Imports a device ID for a client, as on the console's device ID page (protocol 4.1.1). */
  public synchronized void importDeviceId(String clientId, String deviceId) {
    requireNonEmpty("deviceId", deviceId);
    Set<String> ids = deviceIds.get(clientId);
    if (ids == null) throw new IllegalArgumentException("clientId is not a known client: " + clientId);
    ids.add(deviceId);
  }

  public synchronized void removeDeviceId(String clientId, String deviceId) {
    Set<String> ids = deviceIds.get(clientId);
    if (ids != null) ids.remove(deviceId);
  }

  /** Adds a phone number to the tester whitelist (protocol 4.2.3). */
  public synchronized void addTesterPhone(String phone) {
    requireNonEmpty("phone", phone);
    testerPhones.add(phone);
  }

  public synchronized void removeTesterPhone(String phone) {
    testerPhones.remove(phone);
  }

  /** Adds an account or replaces the account with the same namespace. */
  public synchronized void putAccount(Account account) {
    accounts.put(account.namespace(), account);
  }

  /**
   * Adds an entity definition or replaces the one with the same res_name.
   *
   * @throws IllegalStateException if no account has the entity's namespace: the platform would
   *     refuse every upload of it
   */
  public synchronized void putEntity(EntityDefinition entity) {
    if (!accounts.containsKey(entity.namespace())) {
      throw new IllegalStateException("entity " + entity.resName() + " needs an account with namespace "
          + entity.namespace());
    }
    entities.put(entity.resName(), entity);
  }

  public synchronized void setAccessTokenLifetimeSeconds(long seconds) {
    accessTokenLifetimeSeconds = positive("accessTokenLifetimeSeconds", seconds);
  }

  /** 0 means refresh tokens never expire (they still stop working once used). */
  public synchronized void setRefreshTokenLifetimeSeconds(long seconds) {
    refreshTokenLifetimeSeconds = notNegative("refreshTokenLifetimeSeconds", seconds);
  }

  public synchronized void setUserCodeLifetimeSeconds(long seconds) {
    userCodeLifetimeSeconds = positive("userCodeLifetimeSeconds", seconds);
  }

  /** How long a one-time code sent by SMS to a tester phone (the verification page's login) works. */
  public synchronized void setSmsCodeLifetimeSeconds(long seconds) {
    smsCodeLifetimeSeconds = positive("smsCodeLifetimeSeconds", seconds);
  }

  public synchronized void setPollIntervalSeconds(long seconds) {
    pollIntervalSeconds = positive("pollIntervalSeconds", seconds);
  }

  /** When on, a device polling faster than the interval gets {@code slow_down}. Off by default. */
  public synchronized void setSlowDown(boolean enabled) {
    slowDown = enabled;
  }

  /**
   * Switches a {@link PlatformVariant} on or off: from the next request on, the server answers in that
   * reading of an open point of the spec.
   *
   * @throws IllegalArgumentException when switching on one status of authorization errors while
   *     another is on
   */
  public synchronized void setVariant(PlatformVariant variant, boolean enabled) {
    if (variant == null) throw new IllegalArgumentException("variant must not be null");
    if (!enabled) {
      variants.remove(variant);
      return;
    }
    if (AUTH_ERROR_STATUSES.contains(variant)) {
      for (PlatformVariant other : AUTH_ERROR_STATUSES) {
        if (other != variant && variants.contains(other)) {
          throw new IllegalArgumentException(variant.flag() + " and " + other.flag() + " cannot both be on");
        }
      }
    }
    variants.add(variant);
  }

  // ---- reading ----

  /** The variants switched on; empty for the reference reading. */
  public synchronized Set<PlatformVariant> getVariants() {
    return Collections.unmodifiableSet(variants.clone());
  }

  synchronized boolean has(PlatformVariant variant) {
    return variants.contains(variant);
  }

  public synchronized List<RegisteredClient> getClients() {
    return Collections.unmodifiableList(new ArrayList<>(clients.values()));
  }

  public synchronized Set<String> getDeviceIds(String clientId) {
    Set<String> ids = deviceIds.get(clientId);
    return ids == null ? Collections.<String>emptySet() : Collections.unmodifiableSet(new LinkedHashSet<>(ids));
  }

  public synchronized Set<String> getTesterPhones() {
    return Collections.unmodifiableSet(new LinkedHashSet<>(testerPhones));
  }

  public synchronized List<Account> getAccounts() {
    return Collections.unmodifiableList(new ArrayList<>(accounts.values()));
  }

  public synchronized List<EntityDefinition> getEntities() {
    return Collections.unmodifiableList(new ArrayList<>(entities.values()));
  }

  public synchronized long getAccessTokenLifetimeSeconds() {
    return accessTokenLifetimeSeconds;
  }

  public synchronized long getRefreshTokenLifetimeSeconds() {
    return refreshTokenLifetimeSeconds;
  }

  public synchronized long getUserCodeLifetimeSeconds() {
    return userCodeLifetimeSeconds;
  }

  public synchronized long getSmsCodeLifetimeSeconds() {
    return smsCodeLifetimeSeconds;
  }

  public synchronized long getPollIntervalSeconds() {
    return pollIntervalSeconds;
  }

  public synchronized boolean isSlowDown() {
    return slowDown;
  }

  synchronized @Nullable RegisteredClient client(String clientId) {
    return clients.get(clientId);
  }

  synchronized boolean isImported(String clientId, String deviceId) {
    Set<String> ids = deviceIds.get(clientId);
    return ids != null && ids.contains(deviceId);
  }

  synchronized boolean isTester(String phone) {
    return testerPhones.contains(phone);
  }

  synchronized @Nullable Account account(String namespace) {
    return accounts.get(namespace);
  }

  synchronized @Nullable EntityDefinition entity(String resName) {
    return entities.get(resName);
  }

  /** The appid an empty {@code appid} in pers_param stands for, for a device of this client. */
  synchronized @Nullable String appidFor(String clientId) {
    RegisteredClient c = clients.get(clientId);
    if (c != null && c.appid() != null) return c.appid();
    for (Account a : accounts.values()) return a.appid();
    return null;
  }

  @Override public synchronized String toString() {
    return "Console{clients=" + clients.keySet() + ", accounts=" + accounts.keySet()
        + ", entities=" + entities.keySet() + ", testerPhones=" + testerPhones.size() + "}";
  }

  /** Builds a {@link Console}; lifetimes default to the platform's public sample values. Not thread-safe. */
  public static final class Builder {
    private final List<RegisteredClient> clients = new ArrayList<>();
    private final List<String[]> devices = new ArrayList<>();
    private final List<String> phones = new ArrayList<>();
    private final List<Account> accounts = new ArrayList<>();
    private final List<EntityDefinition> entities = new ArrayList<>();
    private long accessTokenLifetimeSeconds = 8_640_000L;
    private long refreshTokenLifetimeSeconds = 0;
    private long userCodeLifetimeSeconds = 120;
    private long smsCodeLifetimeSeconds = 300;
    private long pollIntervalSeconds = 2;
    private boolean slowDown;
    private final List<PlatformVariant> variants = new ArrayList<>();

    Builder() {
    }

    public Builder client(RegisteredClient client) {
      clients.add(client);
      return this;
    }

    public Builder deviceIds(String clientId, String... ids) {
      for (String id : Arrays.asList(ids)) devices.add(new String[] {clientId, id});
      return this;
    }

    public Builder testerPhone(String phone) {
      phones.add(requireNonEmpty("phone", phone));
      return this;
    }

    public Builder account(Account account) {
      accounts.add(account);
      return this;
    }

    public Builder entity(EntityDefinition entity) {
      entities.add(entity);
      return this;
    }

    public Builder accessTokenLifetimeSeconds(long seconds) {
      accessTokenLifetimeSeconds = positive("accessTokenLifetimeSeconds", seconds);
      return this;
    }

    public Builder refreshTokenLifetimeSeconds(long seconds) {
      refreshTokenLifetimeSeconds = notNegative("refreshTokenLifetimeSeconds", seconds);
      return this;
    }

    public Builder userCodeLifetimeSeconds(long seconds) {
      userCodeLifetimeSeconds = positive("userCodeLifetimeSeconds", seconds);
      return this;
    }

    /** See {@link Console#setSmsCodeLifetimeSeconds}; 300 (5 minutes) by default. */
    public Builder smsCodeLifetimeSeconds(long seconds) {
      smsCodeLifetimeSeconds = positive("smsCodeLifetimeSeconds", seconds);
      return this;
    }

    public Builder pollIntervalSeconds(long seconds) {
      pollIntervalSeconds = positive("pollIntervalSeconds", seconds);
      return this;
    }

    public Builder slowDown(boolean enabled) {
      slowDown = enabled;
      return this;
    }

    /** Switches {@code variant} on; see {@link Console#setVariant(PlatformVariant, boolean)}. */
    public Builder variant(PlatformVariant variant) {
      if (variant == null) throw new IllegalArgumentException("variant must not be null");
      variants.add(variant);
      return this;
    }

    public Console build() {
      Set<String> known = new LinkedHashSet<>();
      for (RegisteredClient c : clients) known.add(c.clientId());
      for (String[] d : devices) {
        if (!known.contains(d[0])) throw new IllegalStateException("deviceIds for unknown client: " + d[0]);
      }
      return new Console(this); // which puts the entities after the accounts, checking each
    }
  }

  static String requireNonEmpty(String name, String value) {
    if (value == null || value.isEmpty()) throw new IllegalArgumentException(name + " must not be empty");
    return value;
  }

  static long positive(String name, long value) {
    if (value <= 0) throw new IllegalArgumentException(name + " must be > 0; was: " + value);
    return value;
  }

  static long notNegative(String name, long value) {
    if (value < 0) throw new IllegalArgumentException(name + " must be >= 0; was: " + value);
    return value;
  }
}
