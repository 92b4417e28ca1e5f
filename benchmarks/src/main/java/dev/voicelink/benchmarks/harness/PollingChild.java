package dev.voicelink.benchmarks.harness;

import dev.voicelink.auth.DeviceAuthorizer;
import dev.voicelink.auth.DeviceCode;
import dev.voicelink.auth.DeviceFlowOutcome;
import dev.voicelink.core.VoiceLinkClient;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * A device waiting for its user: requests a device code, prints {@code CODE <user code>}, polls until
 * the flow ends, then prints {@code RESULT <outcome> <process CPU ns> <waiting thread CPU ns> <wall ns>}
 * measured over the wait. In {@code idle} mode it sleeps instead, for a JVM's own background CPU.
 *
 * <p>Usage: {@code PollingChild device <authUrl> <clientId> <deviceId>} or {@code PollingChild idle <seconds>}
 */
public final class PollingChild {
  private PollingChild() {
  }

  public static void main(String[] args) throws Exception {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    if (args[0].equals("idle")) {
      long cpu = processCpuNanos();
      long thread = threads.getCurrentThreadCpuTime();
      long wall = System.nanoTime();
      Thread.sleep(Long.parseLong(args[1]) * 1000L);
      System.out.println("RESULT IDLE " + (processCpuNanos() - cpu) + " "
          + (threads.getCurrentThreadCpuTime() - thread) + " " + (System.nanoTime() - wall));
      return;
    }
    VoiceLinkClient client = VoiceLinkClient.builder().authUrl(args[1]).build();
    DeviceAuthorizer authorizer = DeviceAuthorizer.builder(client).clientId(args[2]).build();
    DeviceCode code = authorizer.requestCode(args[3]).execute();
    System.out.println("CODE " + code.userCode() + " " + code.intervalSeconds());
    System.out.flush();
    long cpu = processCpuNanos();
    long thread = threads.getCurrentThreadCpuTime();
    long wall = System.nanoTime();
    DeviceFlowOutcome outcome = authorizer.poll(code).execute();
    System.out.println("RESULT " + outcome.kind() + " " + (processCpuNanos() - cpu) + " "
        + (threads.getCurrentThreadCpuTime() - thread) + " " + (System.nanoTime() - wall));
    System.exit(0);
  }

  static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }
}
