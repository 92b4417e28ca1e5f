package dev.voicelink.reliability;

import dev.voicelink.auth.TokenSource;
import dev.voicelink.core.VirtualTime;
import dev.voicelink.interact.Disconnect;
import dev.voicelink.interact.InteractSeams;
import dev.voicelink.interact.InteractionChannel;
import dev.voicelink.interact.InteractionResult;
import dev.voicelink.reliability.FaultMatrixTest.Cell;
import dev.voicelink.reliability.FaultMatrixTest.Fault;
import dev.voicelink.reliability.FaultMatrixTest.Row;
import dev.voicelink.reliability.FaultMatrixTest.Target;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The interaction channel's row of sdk-core's fault matrix ({@link FaultMatrixTest}, whose cells,
 * faults and checks it shares): the upgrade under every network fault must end in bounded
 * reconnects and a typed {@link Disconnect}, and connect once the fault clears. Published in
 * docs/reliability.md.
 */
class InteractFaultMatrixTest {
  static final Map<Target, List<Row>> rows = new EnumMap<>(Target.class);

  @TestFactory List<DynamicTest> matrix() {
    List<DynamicTest> tests = new ArrayList<>();
    for (Fault fault : Fault.values()) {
      tests.add(DynamicTest.dynamicTest(Target.INTERACT.label + " x " + fault.label,
          () -> FaultMatrixTest.runCell(Target.INTERACT, fault, rows,
              InteractFaultMatrixTest::interact)));
    }
    return tests;
  }

  @AfterAll static void publish() throws IOException {
    FaultMatrixTest.publish(rows, 1, "fault-matrix-interact");
  }

  static void interact(Cell cell, Row row) throws Exception {
    cell.leaveAnIdleConnection();
    TokenSource tokens = () -> "at-device";
    ChannelListener listener = new ChannelListener(cell.time);
    InteractionChannel channel = InteractSeams.seeded(quiet(InteractionChannel.builder(cell.target_,
        tokens)).listener(listener).maxReconnectAttempts(Cell.RECONNECTS), new Random(7)).build();
    channel.connect();
    cell.drive(() -> listener.gaveUp() || listener.connected != null);
    Disconnect last = listener.last;
    row.outcome = listener.connected != null || last == null
        ? "connected"
        : "gave up (" + last.cause() + "), state " + channel.state() + "; last reason: "
            + normalize(last.detail());
    row.attempts = cell.sent(Target.INTERACT);
    channel.close();
    cell.faulty = false;
    ChannelListener again = new ChannelListener(cell.time);
    InteractionChannel after = InteractSeams.seeded(quiet(InteractionChannel.builder(cell.live,
        tokens)).listener(again), new Random(7)).build();
    after.connect();
    cell.drive(() -> again.connected != null || again.gaveUp());
    row.recovered = FaultMatrixTest.AUTH_ID.equals(again.connected);
    after.close();
  }

  /**
   * No pings, and a greeting deadline the cell's steps cannot reach while a greeting is on its way:
   * {@link Cell#drive} moves virtual time 2 minutes whenever a task is scheduled, and the deadline is
   * scheduled when the socket opens, a moment before the greeting is read. The deadline has its own
   * tests (InteractionChannelTest); here it would race the real socket.
   */
  static InteractionChannel.Builder quiet(InteractionChannel.Builder builder) {
    return builder.pingIntervalSeconds(0).greetingTimeout(1, TimeUnit.DAYS);
  }

  /** Keeps the class of a transport failure and drops its message, which varies from run to run. */
  static String normalize(String reason) {
    return reason.replaceAll("^([A-Za-z]+Exception)(: .*)?$", "$1");
  }

  /** Signals the cell's virtual time at each news, so that the cell's barrier sees it at once. */
  static final class ChannelListener implements InteractionChannel.Listener {
    final VirtualTime time;
    volatile @Nullable String connected;
    volatile @Nullable Disconnect last;

    ChannelListener(VirtualTime time) {
      this.time = time;
    }

    @Override public void onConnected(String uid) {
      connected = uid;
      time.signal();
    }

    @Override public void onResult(InteractionResult result) {
    }

    @Override public void onDisconnected(Disconnect disconnect) {
      last = disconnect;
      time.signal();
    }

    boolean gaveUp() {
      Disconnect disconnect = last;
      return disconnect != null && !disconnect.reconnecting();
    }
  }
}
