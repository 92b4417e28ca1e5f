package dev.voicelink.testing;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import okhttp3.Headers;
import okhttp3.Response;
import okhttp3.WebSocket;
import okhttp3.WebSocketListener;
import okhttp3.mockwebserver.MockResponse;
import okio.Buffer;
import okio.ByteString;
import org.jspecify.annotations.Nullable;

/**
 * The interaction channel (docs/interaction-channel.md): a WebSocket authenticated by a
 * device-flow access token. Text writes are matched against the dynamic entities in effect for their
 * pers_param; audio writes are counted and handed to the {@link SpeechRecognizer}.
 */
final class InteractionService {
  private static final int NORMAL_CLOSURE = 1000;
  private static final int GOING_AWAY = 1001;
  /** RFC 6455's "internal error": the protocol has no error code for the server's own failure. */
  private static final int INTERNAL_ERROR = 1011;
  /** Sessions still open, so that stopping the server can say goodbye to their clients. */
  private final Set<WebSocket> open = Collections.newSetFromMap(new ConcurrentHashMap<WebSocket, Boolean>());
  static final int BAD_MESSAGE = 60001;
  static final int BAD_PERS_PARAM = 60002;
  static final int BAD_AUDIO_SEQUENCE = 60003;
  static final int AUDIO_TOO_LARGE = 60004;
  static final int TOKEN_EXPIRED = 60005;
  static final long MAX_AUDIO_BYTES = 16L * 1024 * 1024;
  /** The journal's method for a frame received on an open channel. */
  static final String FRAME = "WS";
  private static final Logger LOG = Logger.getLogger(InteractionService.class.getName());

  private final Console console;
  private final AuthState auth;
  private final ResourceStore store;
  private final ServerClock clock;
  private final SpeechRecognizer recognizer;
  private final Journal journal;

  InteractionService(Console console, AuthState auth, ResourceStore store, ServerClock clock,
      SpeechRecognizer recognizer, Journal journal) {
    this.journal = journal;
    this.console = console;
    this.auth = auth;
    this.store = store;
    this.clock = clock;
    this.recognizer = recognizer;
  }

  static String deviceOwner(String clientId, String deviceId) {
    return clientId + "/" + deviceId;
  }

  MockResponse upgrade(HttpCall call) {
    if (!"GET".equals(call.method) || !"websocket".equalsIgnoreCase(call.header("Upgrade"))) {
      return HttpCall.json(400, Json.obj("error", "invalid_request", "message", "this is a WebSocket endpoint"));
    }
    String handshake = handshakeProblem(call);
    if (handshake != null) {
      MockResponse refused = HttpCall.json(handshake.startsWith("Sec-WebSocket-Version") ? 426 : 400,
          Json.obj("error", "invalid_request", "message", handshake));
      return refused.setHeader("Sec-WebSocket-Version", "13");
    }
    String token = call.header("Authorization");
    if (token == null || token.isEmpty()) {
      return HttpCall.json(401, Json.obj("error", "invalid_token", "message", "Authorization header is required"));
    }
    AuthState.TokenGrant grant = auth.validAccessToken(token, call.now);
    if (grant == null) {
      return HttpCall.json(401, Json.obj("error", "invalid_token", "message", "the token is unknown or has expired"));
    }
    if (grant.kind != AuthState.TokenKind.DEVICE) {
      return HttpCall.json(403, Json.obj("error", "insufficient_scope",
          "message", "the interaction channel needs a device-flow token, not a cloud token"));
    }
    return new MockResponse().withWebSocketUpgrade(new Session(grant));
  }

  /**
   * What in the upgrade's handshake (RFC 6455 4.1) the server cannot answer with a WebSocket; null
   * when it can. It answers exactly {@code Connection: Upgrade}, what OkHttp and most device libraries
   * send: MockWebServer, under it, would take {@code keep-alive, Upgrade} (a browser's) for a plain
   * HTTP 101 and never open the socket, so that is refused in words rather than answered so.
   */
  static @Nullable String handshakeProblem(HttpCall call) {
    String connection = call.header("Connection");
    if (connection == null || !connection.trim().equalsIgnoreCase("Upgrade")) {
      return "Connection must be Upgrade (this server takes no other form); was: " + connection;
    }
    String key = call.header("Sec-WebSocket-Key");
    if (key == null || !key.trim().matches("[A-Za-z0-9+/]{22}==")) { // 16 bytes in Base64
      return "Sec-WebSocket-Key must be 16 random bytes in Base64; was: " + key;
    }
    if (!"13".equals(call.header("Sec-WebSocket-Version"))) {
      return "Sec-WebSocket-Version must be 13; was: " + call.header("Sec-WebSocket-Version");
    }
    return null;
  }

  /** Sends every open session a 1001 (going away) close frame. */
  void closeAll() {
    for (WebSocket ws : open) ws.close(GOING_AWAY, "server stopping");
  }

  /**
   * Waits, at most {@code timeoutMillis}, until every session has finished its close handshake;
   * returns whether they all have.
   */
  boolean awaitAllClosed(long timeoutMillis) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    synchronized (open) {
      while (!open.isEmpty()) {
        long left = deadline - System.nanoTime();
        if (left <= 0) return false;
        TimeUnit.NANOSECONDS.timedWait(open, left);
      }
      return true;
    }
  }

  private void ended(WebSocket ws) {
    synchronized (open) {
      open.remove(ws);
      open.notifyAll();
    }
  }

  /** A message as sent: with the fields of {@link PlatformVariant#EXTRA_FIELDS} when it is on. */
  private String message(Map<String, Object> message) {
    return Json.write(console.has(PlatformVariant.EXTRA_FIELDS) ? PlatformVariant.addExtraFields(message) : message);
  }

  private final class Session extends WebSocketListener {
    private final AuthState.TokenGrant grant;
    private long audioSeq;
    private int sampleRate;
    private @Nullable String audioPersParam;
    private @Nullable Buffer audio;

    Session(AuthState.TokenGrant grant) {
      this.grant = grant;
    }

    @Override public void onOpen(WebSocket ws, Response response) {
      open.add(ws);
      ws.send(message(Json.obj("type", "connected", "uid", grant.authId)));
    }

    @Override public void onClosing(WebSocket ws, int code, String reason) {
      ws.close(NORMAL_CLOSURE, null);
    }

    @Override public void onClosed(WebSocket ws, int code, String reason) {
      ended(ws);
    }

    @Override public void onFailure(WebSocket ws, Throwable t, Response response) {
      ended(ws);
    }

    @Override public void onMessage(WebSocket ws, String text) {
      try {
        answer(ws, text);
      } catch (RuntimeException e) {
        internalError(ws, e);
      }
    }

    @Override public void onMessage(WebSocket ws, ByteString bytes) {
      try {
        answer(ws, bytes);
      } catch (RuntimeException e) {
        internalError(ws, e);
      }
    }

    /**
     * A bug of this server, or of the app's {@link SpeechRecognizer}, ends the session with a close
     * the client can read, as the HTTP routes answer 500, instead of OkHttp dropping the connection.
     */
    private void internalError(WebSocket ws, RuntimeException e) {
      LOG.log(Level.SEVERE, "internal error on a frame of the interaction channel", e);
      ws.close(INTERNAL_ERROR, "internal error of the reference server");
    }

    private void answer(WebSocket ws, String text) {
      boolean expired = expired();
      String reply = expired ? expiredError(seqOf(text)) : reply(text);
      journal.record(new RecordedCall(FRAME, Router.INTERACT, Headers.of(), text, clock.nowMillis(), 0,
          reply == null ? "" : reply));
      if (reply != null) ws.send(reply);
      if (expired) ws.close(4401, "token expired");
    }

    private void answer(WebSocket ws, ByteString bytes) {
      boolean expired = expired();
      String reply = expired ? expiredError(audio != null ? audioSeq : null) : audio(bytes);
      journal.record(new RecordedCall(FRAME, Router.INTERACT, Headers.of(), "<" + bytes.size() + " bytes of audio>",
          clock.nowMillis(), 0, reply == null ? "" : reply));
      if (reply != null) ws.send(reply);
      if (expired) ws.close(4401, "token expired");
    }

    private boolean expired() {
      return clock.nowMillis() >= grant.accessExpiresAt;
    }

    /** 60005 for the frame of {@code seq} (null: a frame without one), before the session closes. */
    private String expiredError(@Nullable Long seq) {
      return error(seq, TOKEN_EXPIRED, "the access token has expired; reconnect with a fresh token");
    }

    /** The {@code seq} of a text frame, or null when it has none that is valid. */
    private @Nullable Long seqOf(String text) {
      Map<String, Object> m = Json.parseObject(text);
      return m == null ? null : Json.wholeNumber(m.get("seq"));
    }

    /** The answer to a text frame; null when the frame only opens an audio write. */
    private @Nullable String reply(String text) {
      Map<String, Object> m = Json.parseObject(text);
      if (m == null) return error(null, BAD_MESSAGE, "a text frame must be a JSON object");
      Long seq = Json.wholeNumber(m.get("seq"));
      if (seq == null) return error(null, BAD_MESSAGE, "seq must be a non-negative integer");
      Object type = m.get("type");
      if ("write".equals(type)) return write(m, seq);
      if ("end".equals(type)) return end(seq);
      return error(seq, BAD_MESSAGE, "type must be write or end; was: " + type);
    }

    private @Nullable String write(Map<String, Object> m, long seq) {
      if (audio != null) {
        return error(seq, BAD_AUDIO_SEQUENCE, "the audio write " + audioSeq + " is still open; send end first");
      }
      Object persParam = m.get("pers_param");
      if (persParam != null && !(persParam instanceof String)) {
        return error(seq, BAD_PERS_PARAM, "pers_param must be JSON text (a string)");
      }
      List<Target> targets;
      try {
        targets = targets((String) persParam);
      } catch (IllegalArgumentException e) {
        return error(seq, BAD_PERS_PARAM, e.getMessage());
      }
      Object dataType = m.get("data_type");
      if ("text".equals(dataType)) {
        Object text = m.get("text");
        if (!(text instanceof String)) return error(seq, BAD_MESSAGE, "a text write needs a string field text");
        return result(seq, (String) text, targets, null);
      }
      if ("audio".equals(dataType)) {
        Long rate = Json.wholeNumber(m.get("sample_rate"));
        if (rate == null || rate == 0 || rate > Integer.MAX_VALUE) {
          return error(seq, BAD_MESSAGE, "an audio write needs a positive integer sample_rate");
        }
        audioSeq = seq;
        sampleRate = rate.intValue();
        audioPersParam = (String) persParam;
        audio = new Buffer();
        return null;
      }
      return error(seq, BAD_MESSAGE, "data_type must be text or audio; was: " + dataType);
    }

    /** Adds a binary frame to the open audio write; an error when there is none or it grows too large. */
    private @Nullable String audio(ByteString bytes) {
      if (audio == null) return error(null, BAD_AUDIO_SEQUENCE, "binary frames must follow an audio write");
      if (audio.size() + bytes.size() > MAX_AUDIO_BYTES) {
        audio = null;
        return error(audioSeq, AUDIO_TOO_LARGE, "an audio write may hold at most " + MAX_AUDIO_BYTES + " bytes");
      }
      audio.write(bytes);
      return null;
    }

    private String end(long seq) {
      if (audio == null || audioSeq != seq) {
        return error(seq, BAD_AUDIO_SEQUENCE, "end must close the open audio write"
            + (audio == null ? "; none is open" : " " + audioSeq));
      }
      byte[] bytes = audio.readByteArray();
      audio = null;
      return result(seq, recognizer.recognize(bytes, sampleRate), targets(audioPersParam), (long) bytes.length);
    }

    private String result(long seq, String text, List<Target> targets, @Nullable Long audioBytes) {
      Map<String, Object> r = Json.obj("type", "result", "seq", seq, "text", text, "entities", match(text, targets));
      if (audioBytes != null) r.put("audio_bytes", audioBytes);
      return message(r);
    }

    private String error(@Nullable Long seq, int code, String desc) {
      LOG.fine("interaction error " + code + ": " + desc);
      return message(Json.obj("type", "error", "seq", seq, "code", code, "desc", desc));
    }

    /** pers_param → the (resource, owner) pairs it activates (protocol 4.10); IllegalArgumentException if invalid. */
    private List<Target> targets(@Nullable String persParam) {
      if (persParam == null) return Collections.emptyList();
      Map<String, Object> p = Json.parseObject(persParam);
      if (p == null) throw new IllegalArgumentException("pers_param must be a JSON object");
      if (p.isEmpty()) {
        // protocol 4.10 activates by naming each level; an object without one names nothing
        throw new IllegalArgumentException("pers_param must name at least one level (appid, uid or a custom"
            + " dimension): an empty one activates nothing");
      }
      List<Target> out = new ArrayList<>();
      for (Map.Entry<String, Object> e : p.entrySet()) {
        if (!(e.getValue() instanceof String)) throw new IllegalArgumentException("pers_param." + e.getKey() + " must be a string");
        String value = (String) e.getValue();
        String dimension;
        @Nullable String owner;
        switch (e.getKey()) {
          case "uid":
            owner = value.isEmpty() ? grant.authId : value;
            if (!WebApiService.AUTH_ID.matcher(owner).matches()) {
              throw new IllegalArgumentException("pers_param.uid must be empty or 32 lowercase letters or digits");
            }
            dimension = EntityDefinition.USER;
            break;
          case "appid":
            owner = value.isEmpty() ? console.appidFor(grant.clientId) : value;
            dimension = EntityDefinition.APPLICATION;
            break;
          default:
            if (e.getKey().equals(EntityDefinition.APPLICATION) || e.getKey().equals(EntityDefinition.USER)
                || e.getKey().equals(EntityDefinition.DEVICE)) {
              // protocol 4.10 activates the application and user levels by appid and uid, custom ones by name
              throw new IllegalArgumentException("pers_param key " + e.getKey() + " is not a custom dimension;"
                  + " use appid or uid (device-level resources are not activated)");
            }
            if (value.trim().isEmpty()) throw new IllegalArgumentException("pers_param." + e.getKey() + " needs the group value");
            owner = value;
            dimension = e.getKey();
        }
        boolean known = false;
        for (EntityDefinition def : console.getEntities()) {
          if (def.dimension().equals(dimension)) {
            known = true;
            out.add(new Target(def, owner));
          }
        }
        if (!known && !"uid".equals(e.getKey()) && !"appid".equals(e.getKey())) {
          throw new IllegalArgumentException("pers_param key " + e.getKey() + " is not the dimension of any resource");
        }
      }
      return out;
    }

    private List<Object> match(String text, List<Target> targets) {
      String haystack = text.toLowerCase(Locale.ROOT);
      List<long[]> order = new ArrayList<>();
      List<Object> found = new ArrayList<>();
      long now = clock.nowMillis();
      for (Target t : targets) {
        for (Map<String, String> record : store.recordsInEffect(t.definition.resName(), t.owner, now)) {
          int bestAt = -1;
          String best = null;
          for (String phrase : phrases(record, t.definition)) {
            int at = haystack.indexOf(phrase.toLowerCase(Locale.ROOT));
            if (at >= 0 && (bestAt < 0 || at < bestAt || (at == bestAt && phrase.length() > best.length()))) {
              bestAt = at;
              best = phrase;
            }
          }
          if (best != null) {
            order.add(new long[] {bestAt, found.size()});
            found.add(Json.obj("res_name", t.definition.resName(), "value", record.get(t.definition.mainField()),
                "matched", best));
          }
        }
      }
      Collections.sort(order, (a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
      List<Object> sorted = new ArrayList<>();
      for (long[] o : order) sorted.add(found.get((int) o[1]));
      return sorted;
    }
  }

  /**
   * A record's phrases: the main field and every alias; a secondary field may list several, split by
   * '|'. The entity may have changed in the console since the record was uploaded: only the fields
   * the record has count.
   */
  static List<String> phrases(Map<String, String> record, EntityDefinition def) {
    List<String> out = new ArrayList<>();
    String main = record.get(def.mainField());
    if (main != null && !main.trim().isEmpty()) out.add(main.trim());
    for (String f : def.secondaryFields()) {
      String aliases = record.get(f);
      if (aliases == null) continue;
      for (String alias : aliases.split("\\|")) {
        if (!alias.trim().isEmpty()) out.add(alias.trim());
      }
    }
    return out;
  }

  private static final class Target {
    final EntityDefinition definition;
    final @Nullable String owner;

    Target(EntityDefinition definition, @Nullable String owner) {
      this.definition = definition;
      this.owner = owner;
    }
  }
}
