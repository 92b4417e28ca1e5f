package dev.voicelink.auth;

import dev.voicelink.core.VirtualTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.RecordedRequest;
import okhttp3.mockwebserver.SocketPolicy;

/**
 * A scripted authorization service for MockWebServer: answers in the order enqueued and notes the
 * virtual time at which each request arrived, so tests check time rules on the server's side.
 */
final class AuthServerScript extends Dispatcher {
  private final VirtualTime time;
  private final long startNanos;
  private final BlockingQueue<MockResponse> responses = new LinkedBlockingQueue<>();
  private final List<Long> arrivalsMillis = Collections.synchronizedList(new ArrayList<>());
  private final List<String> paths = Collections.synchronizedList(new ArrayList<>());
  /** Once set, each answer waits (up to 10 real seconds) until it opens. */
  private volatile CountDownLatch answersHeld;

  AuthServerScript(VirtualTime time) {
    this.time = time;
    this.startNanos = time.monotonicNanos();
  }

  /** A device record of client {@code vl-speaker-01}, received now on the script's clock. */
  TokenRecord deviceRecord(String access, String refresh, long expiresIn) {
    return TokenRecord.builder().grant(TokenRecord.Grant.DEVICE).clientId("vl-speaker-01")
        .accessToken(access).refreshToken(refresh).expiresInSeconds(expiresIn)
        .createdAtEpochSeconds(time.wallMillis() / 1000).receivedAtEpochMillis(time.wallMillis())
        .build();
  }

  AuthServerScript enqueue(MockResponse... scripted) {
    for (MockResponse response : scripted) responses.add(response);
    return this;
  }

  /** Holds every answer from now on until {@code release} opens: a server slow to answer. */
  AuthServerScript holdAnswersUntil(CountDownLatch release) {
    answersHeld = release;
    return this;
  }

  @Override public MockResponse dispatch(RecordedRequest request) throws InterruptedException {
    paths.add(request.getPath());
    synchronized (arrivalsMillis) {
      arrivalsMillis.add(TimeUnit.NANOSECONDS.toMillis(time.monotonicNanos() - startNanos));
      arrivalsMillis.notifyAll();
    }
    CountDownLatch held = answersHeld;
    if (held != null && !held.await(10, TimeUnit.SECONDS)) throw new AssertionError("never released");
    MockResponse next = responses.poll();
    return next != null ? next : new MockResponse().setResponseCode(500).setBody("unscripted");
  }

  /** Virtual milliseconds since the script was made at which each request arrived. */
  List<Long> arrivalsMillis() {
    synchronized (arrivalsMillis) {
      return new ArrayList<>(arrivalsMillis);
    }
  }

  /** Blocks (up to 10 real seconds) until {@code count} requests have arrived. */
  void awaitArrivals(int count) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    synchronized (arrivalsMillis) {
      while (arrivalsMillis.size() < count) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw new AssertionError("expected " + count + " requests, saw " + arrivalsMillis.size());
        }
        TimeUnit.NANOSECONDS.timedWait(arrivalsMillis, left);
      }
    }
  }

  List<String> paths() {
    synchronized (paths) {
      return new ArrayList<>(paths);
    }
  }

  static MockResponse json(int status, String body) {
    return new MockResponse().setResponseCode(status)
        .setHeader("Content-Type", "application/json").setBody(body);
  }

  static MockResponse deviceCode(int interval, int expiresIn) {
    return json(200, "{\"verification_uri\":\"https://auth.example.com/verify\","
        + "\"user_code\":\"WDJB-MJHT\",\"interval\":" + interval + ",\"expires_in\":" + expiresIn
        + ",\"device_code\":\"dc-secret-9f8e7d\"}");
  }

  static MockResponse error(String error) {
    return json(400, "{\"error\":\"" + error + "\"}");
  }

  static MockResponse pending() {
    return error("authorization_pending");
  }

  static MockResponse token(String access, String refresh, long expiresIn, long createdAt) {
    return json(200, "{\"token_type\":\"bearer\",\"access_token\":\"" + access + "\","
        + "\"refresh_token\":\"" + refresh + "\",\"expires_in\":" + expiresIn
        + ",\"created_at\":" + createdAt + "}");
  }

  static MockResponse disconnect() {
    return new MockResponse().setSocketPolicy(SocketPolicy.DISCONNECT_AT_START);
  }

  static MockResponse hang() {
    return new MockResponse().setSocketPolicy(SocketPolicy.NO_RESPONSE);
  }
}
