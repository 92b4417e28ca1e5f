package dev.voicelink.benchmarks;

import dev.voicelink.auth.AuthorizationException;
import dev.voicelink.auth.InMemoryTokenStore;
import dev.voicelink.auth.TokenManager;
import dev.voicelink.auth.TokenRecord;
import dev.voicelink.core.VoiceLinkClient;
import dev.voicelink.testing.DefaultConsole;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The token hot path: {@link TokenManager#accessToken()} while the token is valid (no request is
 * made), from one thread and from eight at once, next to the floor of reading a volatile field.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class TokenBenchmark {
  private TokenManager tokens;
  private volatile String token;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    tokens = manager();
    token = "floor-token";
  }

  static TokenManager manager() throws IOException {
    VoiceLinkClient config = VoiceLinkClient.builder().authUrl("http://127.0.0.1:9/").build();
    TokenManager manager = TokenManager.builder(config)
        .deviceGrant(DefaultConsole.CLIENT_ID)
        .store(new InMemoryTokenStore())
        .build();
    manager.setRecord(TokenRecord.builder()
        .grant(TokenRecord.Grant.DEVICE)
        .clientId(DefaultConsole.CLIENT_ID)
        .tokenType("bearer")
        .accessToken("a1b2c3d4e5f60718293a4b5c6d7e8f90")
        .refreshToken("r1b2c3d4e5f60718293a4b5c6d7e8f90")
        .expiresInSeconds(8_640_000L)
        .createdAtEpochSeconds(System.currentTimeMillis() / 1000L)
        .receivedAtEpochMillis(System.currentTimeMillis())
        .build());
    return manager;
  }

  @Benchmark
  public String accessToken1() throws IOException, AuthorizationException {
    return tokens.accessToken();
  }

  @Benchmark
  @Threads(8)
  public String accessToken8() throws IOException, AuthorizationException {
    return tokens.accessToken();
  }

  @Benchmark
  public String volatileRead1() {
    return token;
  }

  @Benchmark
  @Threads(8)
  public String volatileRead8() {
    return token;
  }
}
