#!/bin/sh
# Runs every benchmark and harness, then regenerates docs/performance.md's figures and
# docs/images/encoding.svg. Bounded: about 10-15 minutes on 2 cores. Run from anywhere.
#
#   benchmarks/run.sh            build (with dexing, for the footprint) and run everything
#   SKIP_BUILD=1 benchmarks/run.sh   reuse the jars already built
set -eu
cd "$(dirname "$0")/.."
RESULTS=benchmarks/results
JAR=benchmarks/target/benchmarks.jar
mkdir -p "$RESULTS"

if [ "${SKIP_BUILD:-}" != "1" ]; then
  mvn -B -q -pl benchmarks,sdk-android -am package -DskipTests
fi

CP="-cp $JAR"
java $CP dev.voicelink.benchmarks.harness.MachineInfo "$RESULTS/machine.json"

# JMH: settings are on the classes (1 fork, 2 warm-up and 3 measured iterations of 1-2 s).
# -foe true: a failing benchmark fails the run instead of leaving a silent gap.
java -jar "$JAR" -prof gc -foe true -rf json -rff "$RESULTS/jmh.json" \
  'EncodingBenchmark|RequestOverheadBenchmark|TokenBenchmark'

java -Xmx2g $CP dev.voicelink.benchmarks.harness.HeapHarness 50 48 "$RESULTS/heap.json"
java $CP dev.voicelink.benchmarks.harness.OverheadHarness "$RESULTS/overhead.json" 40 1000
java $CP dev.voicelink.benchmarks.harness.StampedeHarness "$RESULTS/stampede.json" 15 64
java $CP dev.voicelink.benchmarks.harness.PollingHarness "$RESULTS/polling.json" 6:1 10:2
java $CP dev.voicelink.benchmarks.harness.FootprintHarness . \
  sdk-android/target/r8/r8.jar sdk-android/target/r8/android-all.jar "$RESULTS/footprint.json"

java $CP dev.voicelink.benchmarks.report.ReportGenerator "$RESULTS" docs
