package perflab.monitor.gc;

import perflab.core.result.gc.GcAnalysis;
import perflab.core.result.gc.GcCascade;
import perflab.core.result.gc.GcEvent;
import perflab.core.result.gc.GcSecond;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Real JVMs: for each collector on each installed JDK, a child JVM allocates for a second with perflab's GC
 * logging, then prints its GarbageCollectorMXBean counts and times; the analysis of its log must agree.
 *
 * <p>Tolerances: collection counts of stop-the-world collectors within one (a collection starting in the
 * millisecond the child read its beans); concurrent collectors (ZGC, Shenandoah) within 2 cycles and 6 pauses,
 * since a cycle may start or end between the beans' reading and the cut. Pause time: the log's pause line times
 * the whole GC operation, the bean only the collection proper, so the log is no lower than the bean (less
 * rounding), and the analysis equals the log's own pause lines (see {@link #pauseTimeAgrees}). Allocation rate
 * within 30% of the main thread's own allocated bytes over the run: the child copies its live ring before the
 * run starts, so the span the log measures (between collections) and the child's differ by an eden's fill at
 * either end. The child allocates for a second and at least 12 heaps' worth, so young collections come however
 * busy the machine is.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class GcLogAnalyzerJvmTest {
    private static final List<String> COLLECTORS = List.of("serial", "parallel", "g1", "zgc", "shenandoah");
    private static final Map<String, String> FLAGS = Map.of("serial", "-XX:+UseSerialGC", "parallel",
            "-XX:+UseParallelGC", "g1", "-XX:+UseG1GC", "zgc", "-XX:+UseZGC", "shenandoah", "-XX:+UseShenandoahGC");
    private static final Map<String, List<String>> YOUNG_BEANS = Map.of("serial", List.of("Copy"), "parallel",
            List.of("PS Scavenge"), "g1", List.of("G1 Young Generation"));
    private static final Map<String, List<String>> FULL_BEANS = Map.of("serial", List.of("MarkSweepCompact"),
            "parallel", List.of("PS MarkSweep"), "g1", List.of("G1 Old Generation"));

    @TempDir
    Path dir;

    record Jdk(int feature, Path home) {
        Path java() {
            return home.resolve("bin/java");
        }

        @Override
        public String toString() {
            return "JDK " + feature;
        }
    }

    static List<Jdk> jdks() {
        List<Jdk> found = new ArrayList<>();
        for (Jdk j : List.of(new Jdk(17, Path.of("/usr/lib/jvm/java-17-openjdk-amd64")),
                new Jdk(25, Path.of("/usr/lib/jvm/temurin-25-jdk-amd64")))) {
            if (Files.isExecutable(j.java())) {
                found.add(j);
            }
        }
        if (found.isEmpty()) {
            found.add(new Jdk(Runtime.version().feature(), Path.of(System.getProperty("java.home"))));
        }
        return found;
    }

    static Stream<Arguments> jdkAndCollector() {
        return jdks().stream().flatMap(j -> COLLECTORS.stream().map(c -> Arguments.of(j, c)));
    }

    static Stream<Arguments> jdkAndStopTheWorldCollector() {
        return jdks().stream().flatMap(j -> Stream.of("serial", "g1").map(c -> Arguments.of(j, c)));
    }

    record Child(Path log, Map<String, long[]> beans, long allocatedBytes, long start, long end, long burstSecond,
                 long beansAt, long quietStart, long quietEnd) {
        long count(List<String> names) {
            return names.stream().mapToLong(n -> beans.getOrDefault(n, new long[2])[0]).sum();
        }

        long timeMs(List<String> names) {
            return names.stream().mapToLong(n -> beans.getOrDefault(n, new long[2])[1]).sum();
        }

        List<String> named(String part) {
            return beans.keySet().stream().filter(n -> n.contains(part)).toList();
        }
    }

    private Child run(Jdk jdk, String collector, String mode, int ms, String heap) throws Exception {
        Path log = dir.resolve(collector + "-" + jdk.feature() + "-" + mode + ".log");
        Path classes = Path.of(GcWorkload.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Process p = new ProcessBuilder(jdk.java().toString(), "-Xms" + heap, "-Xmx" + heap, FLAGS.get(collector),
                "-Xlog:gc*,safepoint:file=" + log + ":time,uptime,level,tags:filecount=0",
                "-cp", classes.toString(), GcWorkload.class.getName(), mode, String.valueOf(ms))
                .redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "child JVM did not finish");
        if (p.exitValue() != 0) {
            Assumptions.assumeFalse(out.contains("Unrecognized VM option") || out.contains("not supported")
                    || out.contains("Could not create the Java Virtual Machine"), collector + " not available on " + jdk);
            throw new AssertionError("child JVM failed (" + p.exitValue() + "):\n" + out);
        }
        Map<String, long[]> beans = new HashMap<>();
        long allocated = 0;
        long start = 0;
        long end = 0;
        long burst = 0;
        long beansAt = 0;
        long quietStart = 0;
        long quietEnd = 0;
        for (String l : out.split("\n")) {
            String[] w = l.trim().split(" ", 2);
            switch (w[0]) {
                case "BEAN" -> {
                    String[] f = w[1].split("\\|");
                    beans.put(f[0], new long[]{Long.parseLong(f[1]), Long.parseLong(f[2])});
                }
                case "ALLOCATED" -> allocated = Long.parseLong(w[1]);
                case "START" -> start = Long.parseLong(w[1]);
                case "END" -> end = Long.parseLong(w[1]);
                case "BURST" -> burst = Long.parseLong(w[1]);
                case "BEANS_AT" -> beansAt = Long.parseLong(w[1]);
                case "QUIET_START" -> quietStart = Long.parseLong(w[1]);
                case "QUIET_END" -> quietEnd = Long.parseLong(w[1]);
                default -> {
                }
            }
        }
        assertFalse(beans.isEmpty(), "no bean lines from the child:\n" + out);
        return new Child(log, beans, allocated, start, end, burst, beansAt, quietStart, quietEnd);
    }

    private static void near(double expected, double actual, double absolute, double relative, String what) {
        double tolerance = Math.max(absolute, relative * Math.abs(expected));
        assertTrue(Math.abs(expected - actual) <= tolerance,
                what + ": expected " + expected + " ± " + tolerance + " but the analysis says " + actual);
    }

    /**
     * The bean times the collection inside the pause the log times, so the log's pauses are no shorter (less the
     * beans' whole-millisecond rounding); how much longer depends on how long the VM thread waited for a CPU during
     * the pause's other work, which a busy machine stretches, so above that the analysis must equal the pause
     * lines of the log, summed by a scan of its own.
     */
    private static void pauseTimeAgrees(double beanMs, double logMs, String what) {
        assertTrue(logMs >= beanMs - Math.max(20, 0.10 * beanMs),
                what + ": pause ms: the JVM's beans say " + beanMs + ", the analysis " + logMs);
    }

    @ParameterizedTest(name = "{1} on {0}")
    @MethodSource("jdkAndCollector")
    void agreesWithTheJvmsOwnCounts(Jdk jdk, String collector) throws Exception {
        Child child = run(jdk, collector, "alloc", 1000, "64m");
        // Up to the moment the child read its beans: concurrent collectors may start cycles after that.
        GcAnalysis a = new GcLogAnalyzer().analyze(child.log(), Long.MIN_VALUE, child.beansAt(), 0.5);
        String expectedName = collector.equals("zgc") && jdk.feature() >= 24 ? "zgc-generational" : collector;
        assertEquals(expectedName, a.collector());
        String what = collector + " on " + jdk + " " + child.beans().keySet();

        if (YOUNG_BEANS.containsKey(collector)) {
            long young = child.count(YOUNG_BEANS.get(collector));
            long full = child.count(FULL_BEANS.get(collector));
            // The log is cut at the millisecond the child read its beans: a collection that starts in that same
            // millisecond, just after the read, is in the log's window but not in the beans. Hence +-1.
            // G1's young bean counts its mixed pauses too; perflab counts them apart
            assertEquals(young, a.youngCount() + a.mixedCount(), 1, what + ": young (with G1's mixed)");
            assertEquals(full, a.fullCount(), 1, what + ": full");
            assertTrue(a.youngCount() > 10, what + ": a second of allocation makes young collections");
            List<String> stw = new ArrayList<>(YOUNG_BEANS.get(collector));
            stw.addAll(FULL_BEANS.get(collector));
            pauseTimeAgrees(child.timeMs(stw), a.youngPauseMs() + a.mixedPauseMs() + a.fullPauseMs(), what);
            assertNotNull(a.gcCpuSeconds(), what + ": gc,cpu lines");
        } else {
            long cycles = child.count(child.named("Cycles"));
            long pauses = child.count(child.named("Pauses"));
            assertTrue(cycles > 0 && pauses > 0, what);
            // The beans count a cycle when it ends, the log's window holds it from its start: the cycles in flight when
            // the child read its beans are on the log's side only. Generational ZGC here runs about 750 cycles a
            // second, some overlapping (a major cycle's young collection beside minor ones), so a few can be in flight
            // (751 against 748 seen once in CI): up to 1 % over, at least 2; under, only the millisecond of the cut.
            assertTrue(a.count() >= cycles - 2 && a.count() <= cycles + Math.max(2, cycles / 100),
                    what + ": cycles: the beans say " + cycles + ", the analysis " + a.count());
            near(pauses, a.pauseCount(), 6, 0, what + ": pauses");
            pauseTimeAgrees(child.timeMs(child.named("Pauses")), a.totalPauseMs(), what);
            assertNull(a.gcCpuSeconds(), what + ": no gc,cpu lines for concurrent collectors");
        }
        assertEquals(a.count(), a.youngCount() + a.mixedCount() + a.fullCount() + a.concurrentCount());
        // every pause (G1's remark and cleanup too) is in the total: the log's pause lines, summed by a scan of its own
        near(pauseMsIn(child.log(), Long.MIN_VALUE, child.beansAt()), a.totalPauseMs(), 0.01, 1e-6,
                what + ": pause ms of the log's pause lines");

        double expectedRate = child.allocatedBytes() / 1048576.0 / ((child.end() - child.start()) / 1000.0);
        if (a.collector().equals("zgc-generational")) {
            assertNull(a.allocationRateMbPerSec(), what);
        } else {
            assertNotNull(a.allocationRateMbPerSec(), what);
            near(expectedRate, a.allocationRateMbPerSec(), 0, 0.30, what + ": allocation MB/s");
        }
        // The 16 MB ring (1000 x 16 KiB = 15.6 MiB) is reachable all along, so no collection leaves less. What a
        // collection leaves above it is garbage it did not reclaim: for stop-the-world collectors the old
        // collections here are the explicit full ones, which leave the live set; a concurrent collector's cycle
        // also leaves what the program allocated while it ran, which grows with how little CPU the collector got
        // (55 MB seen with the other CPU busy), so the heap (64 MB) is the only bound the JVM promises there.
        // The quiet-phase check below pins the live set itself for every collector.
        assertNotNull(a.liveSetMb(), what);
        double ceiling = YOUNG_BEANS.containsKey(collector) ? 48 : 64;
        assertTrue(a.liveSetMb() >= 14 && a.liveSetMb() <= ceiling, what + ": live set (16 MB ring) " + a.liveSetMb());
        // Explicit collections with nothing allocating: no floating garbage, so only what a collector may leave
        // by design stays above the ring: ZGC and Shenandoah skip pages/regions under 25% garbage (so at most
        // 15.6 / 0.75 = 21 MB), plus the JDK's own objects and partly filled regions (up to 4 MB more).
        GcAnalysis quiet = new GcLogAnalyzer().analyze(child.log(), child.quietStart(), child.quietEnd(), 0.5);
        assertNotNull(quiet.liveSetMb(), what + ": quiet phase");
        assertTrue(quiet.liveSetMb() >= 15 && quiet.liveSetMb() <= 25,
                what + ": live set after explicit collections with nothing allocating " + quiet.liveSetMb());

        near(a.totalPauseMs() / (a.windowSeconds() * 1000) * 100, a.overheadPercent(), 0.01, 0.01, "overhead");
        assertTrue(a.p50PauseMs() <= a.p99PauseMs() && a.p99PauseMs() <= a.maxPauseMs() * 1.002 + 0.001, what);
        double seriesPause = a.perSecond().stream().mapToDouble(GcSecond::pauseMs).sum();
        near(a.totalPauseMs(), seriesPause, 0.5, 0.001, what + ": per-second series");
        assertTrue(a.windowSeconds() >= 1.0 && a.windowSeconds() < 30, what + ": window " + a.windowSeconds());

        // The window: only pauses ending inside it, checked against an independent scan of the file.
        long from = child.start() + 200;
        long to = child.end() - 200;
        GcAnalysis cut = new GcLogAnalyzer().analyze(child.log(), from, to, 0.5);
        assertEquals(pauseLinesIn(child.log(), from, to), cut.pauseCount(), what + ": pauses in window");
        assertTrue(cut.count() < a.count(), what + ": fewer collections in a cut window");
        near((to - from) / 1000.0, cut.windowSeconds(), 0.002, 0, what + ": window length");
    }

    private static final Pattern PAUSE_LINE = Pattern.compile(
            "^\\[([^]]+)]\\[[^]]+]\\[[^]]+]\\[gc(?:,phases)?\\s*] GC\\(\\d+\\) (?:[yYoO]: )?Pause .* ([\\d.]+)ms$");

    private static long pauseLinesIn(Path log, long from, long to) throws IOException {
        return pauseLines(log, from, to).size();
    }

    private static double pauseMsIn(Path log, long from, long to) throws IOException {
        return pauseLines(log, from, to).stream().mapToDouble(Double::doubleValue).sum();
    }

    /** The durations of the log's pause lines that end (are logged) between two instants, by a scan of its own. */
    private static List<Double> pauseLines(Path log, long from, long to) throws IOException {
        java.time.format.DateTimeFormatter f = java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSZ");
        try (Stream<String> lines = Files.lines(log, StandardCharsets.ISO_8859_1)) {
            return lines.map(PAUSE_LINE::matcher).filter(Matcher::matches)
                    .filter(m -> {
                        long t = java.time.OffsetDateTime.parse(m.group(1), f).toInstant().toEpochMilli();
                        return t >= from && t <= to;
                    })
                    .map(m -> Double.parseDouble(m.group(2)))
                    .toList();
        }
    }

    @ParameterizedTest(name = "{1} on {0}")
    @MethodSource("jdkAndStopTheWorldCollector")
    void aBurstOfFullGcsWithinOneSecondIsACascade(Jdk jdk, String collector) throws Exception {
        Child child = run(jdk, collector, "burst", 100, "16m");
        GcAnalysis a = new GcLogAnalyzer().analyze(child.log(), Long.MIN_VALUE, Long.MAX_VALUE, 0.5);
        GcCascade c = a.cascades().stream().filter(x -> x.epochMs() == child.burstSecond()).findFirst()
                .orElseThrow(() -> new AssertionError("no cascade at " + child.burstSecond() + ": " + a.cascades()));
        assertTrue(c.pauseMs() > 500 && c.applicationShare() < 0.5, c.toString());
        assertFalse(c.events().isEmpty());
        assertTrue(c.events().stream().allMatch(e -> e.name().startsWith("Pause Full")), c.events().toString());
        assertTrue(c.events().stream().mapToDouble(GcEvent::pauseMs).sum() >= c.pauseMs() - 0.01);
        assertEquals(a.cascades().size(), a.cascadeSeconds());
        assertTrue(GcTable.render(a).contains("Pause Full (System.gc())"));
    }
}
