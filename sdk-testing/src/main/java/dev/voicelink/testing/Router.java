package dev.voicelink.testing;

import java.nio.charset.StandardCharsets;
import java.text.SimpleDateFormat;
import java.util.Collections;
import java.util.Date;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TimeZone;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.RecordedRequest;
import okhttp3.mockwebserver.SocketPolicy;
import okio.Buffer;
import org.jspecify.annotations.Nullable;

/** Routes each request to its service, applying faults, the Date header and the journal on the way. */
final class Router extends Dispatcher {
  static final String AUTH = "/auth";
  static final String PLATFORM = "/platform";
  static final String API = "/api";
  static final String VERIFY = AUTH + "/verify";
  static final String DEVICE_CODE = AUTH + "/oauth/ivs/device_code";
  static final String TOKEN = AUTH + "/oauth/ivs/token";
  static final String CLOUD_TOKEN = AUTH + "/oauth/token";
  static final String UPLOAD_ENTITIES = PLATFORM + "/tools/upload_entities";
  static final String UPLOAD_RESOURCE = API + "/v2/voicelink/entity/upload-resource";
  static final String CHECK_RESOURCE = API + "/v2/voicelink/entity/check-resource";
  static final String INTERACT = API + "/v2/voicelink/interact";

  private static final Logger LOG = Logger.getLogger(Router.class.getName());

  interface Handler {
    MockResponse handle(HttpCall call);
  }

  private final Console console;
  private final ServerClock clock;
  private final Journal journal;
  private final Faults faults;
  private final AuthService auth;
  private final VerificationPage verify;
  private final Handler webApiUpload;
  private final Handler webApiCheck;
  private final Handler platformUpload;
  private final Handler interact;
  private volatile boolean closing;
  /** The releases of the {@link Fault#holdUntil} and {@link Fault#delay} answers waiting now. */
  private final Set<CountDownLatch> held =
      Collections.newSetFromMap(new ConcurrentHashMap<CountDownLatch, Boolean>());

  Router(Console console, ServerClock clock, Journal journal, Faults faults, AuthService auth,
      VerificationPage verify, Handler webApiUpload, Handler webApiCheck, Handler platformUpload,
      Handler interact) {
    this.console = console;
    this.clock = clock;
    this.journal = journal;
    this.faults = faults;
    this.auth = auth;
    this.verify = verify;
    this.webApiUpload = webApiUpload;
    this.webApiCheck = webApiCheck;
    this.platformUpload = platformUpload;
    this.interact = interact;
  }

  static @Nullable Endpoint endpoint(String route) {
    switch (route) {
      case DEVICE_CODE: return Endpoint.DEVICE_CODE;
      case TOKEN: return Endpoint.TOKEN;
      case CLOUD_TOKEN: return Endpoint.CLOUD_TOKEN;
      case UPLOAD_RESOURCE: return Endpoint.UPLOAD_RESOURCE;
      case CHECK_RESOURCE: return Endpoint.CHECK_RESOURCE;
      case UPLOAD_ENTITIES: return Endpoint.UPLOAD_ENTITIES;
      case INTERACT: return Endpoint.INTERACT;
      default: return route.equals(VERIFY) || route.startsWith(VERIFY + "/") ? Endpoint.VERIFY : null;
    }
  }

  @Override public MockResponse dispatch(RecordedRequest request) {
    HttpCall call = new HttpCall(request, clock.nowMillis());
    Endpoint endpoint = endpoint(call.route);
    Fault fault = endpoint == null ? null : faults.take(endpoint);
    MockResponse response;
    if (fault != null && fault.kind != Fault.Kind.DELAY && fault.kind != Fault.Kind.HOLD) {
      response = faultResponse(fault);
    } else {
      response = route(endpoint, call);
      if (console.has(PlatformVariant.EXTRA_FIELDS)) addExtraFields(response);
    }
    response.setHeader("Date", httpDate(clock.nowMillis()));
    journal.record(new RecordedCall(call.method, call.target, call.headers, call.body, call.now, HttpCall.status(response),
        responseBody(response)));
    if (fault != null && fault.release != null) {
      awaitRelease(fault.release, TimeUnit.SECONDS.toMillis(Fault.MAX_HOLD_SECONDS));
    } else if (fault != null && fault.kind == Fault.Kind.DELAY) {
      // A wait the server's close can end: MockWebServer's own delay sleeps through its shutdown.
      awaitRelease(new CountDownLatch(1), fault.delayMillis);
    }
    return response;
  }

  private void awaitRelease(CountDownLatch release, long atMostMillis) {
    held.add(release);
    try {
      if (!closing) release.await(atMostMillis, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // answer at once
    } finally {
      held.remove(release);
    }
  }

  /**
   * Opens every hold and delay still waiting, for the server's close: MockWebServer waits only a few
   * seconds for its threads and would fail a close behind a hold the test never released.
   */
  void releaseHeld() {
    closing = true; // a hold or delay that begins now does not wait
    for (CountDownLatch release : held) release.countDown();
  }

  private MockResponse route(@Nullable Endpoint endpoint, HttpCall call) {
    try {
      if (call.bodyCutOff) {
        return HttpCall.json(413, Json.obj("error", "request_too_large", "message", "the request body is"
            + " larger than the reference server takes (" + ReferenceServer.MAX_BODY_BYTES + " bytes)"));
      }
      if (endpoint == null) {
        return "/favicon.ico".equals(call.route)
            ? new MockResponse().setResponseCode(404)
            : HttpCall.json(404, Json.obj("error", "not_found", "message", "no endpoint at " + call.route));
      }
      switch (endpoint) {
        case DEVICE_CODE: return auth.deviceCode(call);
        case TOKEN: return auth.token(call);
        case CLOUD_TOKEN: return auth.cloudToken(call);
        case VERIFY: return verify.handle(call);
        case UPLOAD_RESOURCE: return webApiUpload.handle(call);
        case CHECK_RESOURCE: return webApiCheck.handle(call);
        case UPLOAD_ENTITIES: return platformUpload.handle(call);
        case INTERACT: return interact.handle(call);
        default: throw new AssertionError(endpoint);
      }
    } catch (RuntimeException e) {
      // A bug in the server must look like a server error to the client, never like a stack trace.
      LOG.log(Level.SEVERE, "internal error on " + call.method + " " + call.route, e);
      return HttpCall.json(500, Json.obj("error", "server_error", "message", "internal error of the reference server"));
    }
  }

  /** Adds the fields of {@link PlatformVariant#EXTRA_FIELDS} to a JSON object answer. */
  private static void addExtraFields(MockResponse response) {
    Buffer body = response.getBody();
    String type = response.getHeaders().get("Content-Type");
    if (body == null || type == null || !type.startsWith("application/json")) return;
    // Only fields are added: every number is written back as it was, 2 not 2.0, 5.250 not 5.25.
    Map<String, Object> object =
        Json.parseObjectKeepingNumbers(body.clone().readString(StandardCharsets.UTF_8));
    if (object != null) response.setBody(Json.write(PlatformVariant.addExtraFields(object)));
  }

  private static MockResponse faultResponse(Fault fault) {
    switch (fault.kind) {
      case STATUS: {
        MockResponse r = HttpCall.json(fault.status, Json.obj("error", "server_error", "message", "injected fault"));
        if (fault.retryAfterSeconds >= 0) r.setHeader("Retry-After", fault.retryAfterSeconds);
        return r;
      }
      case DISCONNECT_AT_START:
        return new MockResponse().setSocketPolicy(SocketPolicy.DISCONNECT_AFTER_REQUEST);
      case DISCONNECT_MID_BODY:
        return HttpCall.json(200, Json.obj("message", padding()))
            .setSocketPolicy(SocketPolicy.DISCONNECT_DURING_RESPONSE_BODY);
      case MALFORMED_JSON:
        return new MockResponse().setResponseCode(200).setHeader("Content-Type", "application/json; charset=utf-8")
            .setBody("{\"access_token\":\"at_");
      case HTML_ERROR_PAGE:
        return HttpCall.html(fault.status, "<html><head><title>502 Bad Gateway</title></head><body><center>"
            + "<h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>");
      case EMPTY_BODY:
        return new MockResponse().setResponseCode(200).setHeader("Content-Type", "application/json; charset=utf-8");
      default:
        throw new AssertionError(fault.kind);
    }
  }

  private static String padding() {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 256; i++) sb.append("0123456789abcdef");
    return sb.toString();
  }

  private static String responseBody(MockResponse response) {
    Buffer body = response.getBody();
    return body == null ? "" : body.clone().readString(StandardCharsets.UTF_8);
  }

  static String httpDate(long millis) {
    SimpleDateFormat f = new SimpleDateFormat("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US);
    f.setTimeZone(TimeZone.getTimeZone("GMT"));
    return f.format(new Date(millis));
  }
}
