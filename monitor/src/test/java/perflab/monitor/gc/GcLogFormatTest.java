package perflab.monitor.gc;

import perflab.core.result.gc.GcAnalysis;
import perflab.core.result.gc.GcCascade;
import perflab.core.result.gc.GcEvent;
import perflab.core.result.gc.GcSecond;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import perflab.core.result.Json;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Hand-written logs: the clear error for other formats, and figures that can be checked by hand. */
class GcLogFormatTest {
    @TempDir
    Path dir;

    private static final String T0 = "2026-11-22T04:05:0";

    /** A small G1 log: second 05 has a 600 ms full pause reaching back 300 ms into second 04 and a 300 ms young one. */
    private static final String G1_LOG = String.join("\n",
            "[2026-11-22T04:05:03.000+0000][0.100s][info][gc] Using G1",
            "[2026-11-22T04:05:03.500+0000][0.600s][info][gc,start    ] GC(0) Pause Young (Normal) (G1 Evacuation Pause)",
            "[2026-11-22T04:05:03.510+0000][0.610s][info][gc          ] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 30M->10M(64M) 10.000ms",
            "[2026-11-22T04:05:03.510+0000][0.610s][info][gc,cpu      ] GC(0) User=0.02s Sys=0.01s Real=0.01s",
            "[2026-11-22T04:05:05.300+0000][2.400s][info][gc          ] GC(1) Pause Full (System.gc()) 50M->20M(64M) 600.000ms",
            "[2026-11-22T04:05:05.300+0000][2.400s][info][gc,cpu      ] GC(1) User=1.00s Sys=0.10s Real=0.60s",
            "[2026-11-22T04:05:05.900+0000][3.000s][info][gc          ] GC(2) Pause Young (Normal) (G1 Evacuation Pause) 40M->22M(64M) 300.000ms",
            "[2026-11-22T04:05:07.000+0000][4.100s][info][safepoint   ] Safepoint \"Cleanup\", Total: 1000 ns",
            "");

    private Path write(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    /** A running JVM's log is current up to now: a window ending in a quiet stretch keeps its length. */
    @Test
    void aLiveLogKeepsTheWindowsQuietEnd() throws IOException {
        Path log = write("g1-live.log", G1_LOG);
        long from = Instant.parse("2026-11-22T04:05:03Z").toEpochMilli();
        long to = Instant.parse("2026-11-22T04:05:13Z").toEpochMilli();
        GcAnalysis cut = new GcLogAnalyzer().analyze(log, from, to, 0.5);
        assertEquals(4.0, cut.windowSeconds(), 1e-9, "ends at the last line");
        GcAnalysis live = new GcLogAnalyzer().analyzeLive(log, from, to, 0.5, to + 500);
        assertEquals(10.0, live.windowSeconds(), 1e-9);
        assertEquals(910.0 / 10_000 * 100, live.overheadPercent(), 0.001);
        assertEquals(cut.count(), live.count());
        assertEquals(cut.totalPauseMs(), live.totalPauseMs(), 1e-9);
    }

    @Test
    void figuresOfAHandWrittenLog() throws IOException {
        GcAnalysis a = new GcLogAnalyzer().analyze(write("g1.log", G1_LOG));
        assertEquals("g1", a.collector());
        assertEquals(3, a.count());
        assertEquals(2, a.youngCount());
        assertEquals(1, a.fullCount());
        assertEquals(910.0, a.totalPauseMs(), 1e-9);
        assertEquals(310.0, a.youngPauseMs(), 1e-9);
        assertEquals(600.0, a.fullPauseMs(), 1e-9);
        assertEquals(600.0, a.maxPauseMs(), 1e-9);
        // JVM start 04:05:02.900 (time - uptime of the first line) to the last line 04:05:07.000: 4.1 s.
        assertEquals(4.1, a.windowSeconds(), 1e-9);
        assertEquals(910.0 / 4100 * 100, a.overheadPercent(), 0.001);
        assertEquals(1.13, a.gcCpuSeconds(), 1e-9);
        assertEquals(20.0, a.liveSetMb(), 1e-9); // after the only full collection
        // (50 - 10) + (40 - 20) MB from 03.510 to 05.900
        assertEquals(60 / 2.39, a.allocationRateMbPerSec(), 0.001);

        Instant second5 = Instant.parse("2026-11-22T04:05:05Z");
        assertEquals(1, a.cascadeSeconds());
        GcCascade c = a.cascades().get(0);
        assertEquals(second5.toEpochMilli(), c.epochMs());
        assertEquals("2026-11-22T04:05:05Z", c.time());
        assertEquals(600.0, c.pauseMs(), 1e-9); // 300 of the full pause + the young pause
        assertEquals(0.4, c.applicationShare(), 1e-9);
        assertEquals(List.of(1, 2), c.events().stream().map(GcEvent::gcId).toList());

        GcSecond s4 = a.perSecond().stream().filter(s -> s.epochMs() == second5.toEpochMilli() - 1000).findFirst().orElseThrow();
        assertEquals(300.0, s4.pauseMs(), 1e-9);
        assertEquals(0, s4.pauses());
        assertNull(s4.heapAfterMb());
        GcSecond s5 = a.perSecond().stream().filter(s -> s.epochMs() == second5.toEpochMilli()).findFirst().orElseThrow();
        assertEquals(2, s5.pauses());
        assertEquals(22.0, s5.heapAfterMb(), 1e-9);

        // A stricter threshold: 40% left to the application is not below 30%.
        assertEquals(0, new GcLogAnalyzer().analyze(write("g1b.log", G1_LOG), Long.MIN_VALUE, Long.MAX_VALUE, 0.3)
                .cascadeSeconds());
    }

    /**
     * G1's mixed pause collects the young generation and some old regions: it is counted apart, not as a full
     * collection (a reader of "fullCount 3" takes it for three whole-heap collections), and its heap after bounds
     * the live set as a full collection's does.
     */
    @Test
    void aG1MixedPauseIsCountedApartFromFullCollections() throws IOException {
        GcAnalysis a = new GcLogAnalyzer().analyze(write("g1-mixed.log", String.join("\n",
                "[2026-11-22T04:05:03.000+0000][0.100s][info][gc] Using G1",
                "[2026-11-22T04:05:03.510+0000][0.610s][info][gc          ] GC(0) Pause Young (Concurrent Start) (G1 Evacuation Pause) 30M->12M(64M) 10.000ms",
                "[2026-11-22T04:05:03.520+0000][0.620s][info][gc          ] GC(1) Concurrent Mark Cycle 8.000ms",
                "[2026-11-22T04:05:04.010+0000][1.110s][info][gc          ] GC(2) Pause Young (Prepare Mixed) (G1 Evacuation Pause) 40M->18M(64M) 12.000ms",
                "[2026-11-22T04:05:04.520+0000][1.620s][info][gc          ] GC(3) Pause Young (Mixed) (G1 Evacuation Pause) 42M->15M(64M) 20.000ms",
                "[2026-11-22T04:05:05.030+0000][2.130s][info][gc          ] GC(4) Pause Young (Mixed) (G1 Evacuation Pause) 41M->14M(64M) 24.000ms",
                "[2026-11-22T04:05:06.000+0000][3.100s][info][safepoint   ] Safepoint \"Cleanup\", Total: 1000 ns",
                "")));
        assertEquals("g1", a.collector());
        assertEquals(5, a.count());
        assertEquals(2, a.youngCount(), "Concurrent Start and Prepare Mixed collect the young generation only");
        assertEquals(2, a.mixedCount());
        assertEquals(0, a.fullCount());
        assertEquals(1, a.concurrentCount());
        assertEquals(22.0, a.youngPauseMs(), 1e-9);
        assertEquals(44.0, a.mixedPauseMs(), 1e-9);
        assertEquals(0.0, a.fullPauseMs(), 1e-9);
        assertEquals(14.5, a.liveSetMb(), 1e-9, "the median heap after the two mixed pauses");
        assertTrue(GcTable.render(a).contains("(young 2, mixed 2, full 0, concurrent 1)"), GcTable.render(a));
    }

    @Test
    void theWindowCountsOnlyWhatEndsInIt() throws IOException {
        long from = Instant.parse("2026-11-22T04:05:04Z").toEpochMilli();
        long to = Instant.parse("2026-11-22T04:05:05.500Z").toEpochMilli();
        GcAnalysis a = new GcLogAnalyzer().analyze(write("g1.log", G1_LOG), from, to, 0.5);
        assertEquals(1, a.count());
        assertEquals(1, a.fullCount());
        assertEquals(600.0, a.totalPauseMs(), 1e-9);
        assertEquals(1.5, a.windowSeconds(), 1e-9);
        assertEquals(40.0, a.overheadPercent(), 1e-9);
        assertEquals(1.1, a.gcCpuSeconds(), 1e-9);
        assertEquals(0, a.cascadeSeconds());
    }

    @Test
    void jsonCarriesTheSummaryKeysAndNotTheSeries() throws IOException {
        GcAnalysis a = new GcLogAnalyzer().analyze(write("g1.log", G1_LOG)).withRequests(1000);
        JsonNode node = Json.MAPPER.readTree(GcTable.json(a));
        Set<String> keys = new HashSet<>();
        node.fieldNames().forEachRemaining(keys::add);
        assertTrue(keys.containsAll(List.of("collector", "count", "youngCount", "mixedCount", "fullCount", "totalPauseMs",
                "overheadPercent", "maxPauseMs", "p50PauseMs", "p99PauseMs", "gcCpuSeconds", "liveSetMb",
                "allocationRateMbPerSec", "allocatedBytesPerRequest", "cascadeSeconds", "cascades")), keys.toString());
        assertFalse(keys.contains("perSecond"));
        assertEquals(60 / 2.39 * 4.1 * 1048576 / 1000, node.get("allocatedBytesPerRequest").asDouble(), 5); // rate rounded to 0.001 MB/s
        assertEquals(2, node.get("cascades").get(0).get("events").size());
        GcAnalysis back = Json.MAPPER.readValue(GcTable.json(a), GcAnalysis.class);
        assertEquals(a.totalPauseMs(), back.totalPauseMs());
        assertEquals(a.cascades(), back.cascades());

        String table = GcTable.render(a);
        assertTrue(table.contains("g1") && table.contains("2026-11-22T04:05:05Z")
                && table.contains("GC(1) Pause Full (System.gc()) 600.000 ms"), table);
    }

    @Test
    void uptimeOnlyLogsWorkForTheWholeLogButCannotBeCut() throws IOException {
        String log = G1_LOG.replaceAll("\\[" + T0 + "[^]]*]", "");
        Path p = write("uptime.log", log);
        GcAnalysis a = new GcLogAnalyzer().analyze(p);
        assertEquals("uptime", a.clock());
        assertEquals(3, a.count());
        assertEquals(910.0, a.totalPauseMs(), 1e-9);
        UnknownGcLogFormatException e = assertThrows(UnknownGcLogFormatException.class,
                () -> new GcLogAnalyzer().analyze(p, 0, 1000, 0.5));
        assertTrue(e.getMessage().contains("no wall-clock"), e.getMessage());
    }

    @Test
    void aJdk8LogIsRefusedWithTheKnownFormats() throws IOException {
        Path p = write("jdk8.log", String.join("\n",
                "Java HotSpot(TM) 64-Bit Server VM (25.161-b12) for linux-amd64 JRE (1.8.0_161-b12)",
                "Memory: 4k page, physical 16318876k(1234k free), swap 0k(0k free)",
                "2026-11-22T04:05:06.123+0000: 0.345: [GC (Allocation Failure) [PSYoungGen: 65536K->10720K(76288K)] "
                        + "65536K->10728K(251392K), 0.0100000 secs] [Times: user=0.02 sys=0.01, real=0.01 secs]"));
        UnknownGcLogFormatException e = assertThrows(UnknownGcLogFormatException.class,
                () -> new GcLogAnalyzer().analyze(p));
        assertOneLineNamingTheFormats(e, p);
        assertTrue(e.getMessage().contains("JDK 8"), e.getMessage());
        // Without date stamps too.
        Path q = write("jdk8b.log", "0.345: [Full GC (System.gc())  1024K->512K(9728K), 0.0030 secs]\n");
        assertTrue(assertThrows(UnknownGcLogFormatException.class, () -> new GcLogAnalyzer().analyze(q))
                .getMessage().contains("JDK 8"));
    }

    @Test
    void textBinaryAndEmptyFilesAreRefused() throws IOException {
        Path text = write("notes.txt", "lorem ipsum dolor sit amet\n".repeat(500));
        assertOneLineNamingTheFormats(assertThrows(UnknownGcLogFormatException.class,
                () -> new GcLogAnalyzer().analyze(text)), text);
        byte[] bytes = new byte[64 * 1024];
        new Random(7).nextBytes(bytes);
        Path binary = dir.resolve("random.bin");
        Files.write(binary, bytes);
        assertOneLineNamingTheFormats(assertThrows(UnknownGcLogFormatException.class,
                () -> new GcLogAnalyzer().analyze(binary)), binary);
        Path empty = write("empty.log", "");
        assertOneLineNamingTheFormats(assertThrows(UnknownGcLogFormatException.class,
                () -> new GcLogAnalyzer().analyze(empty)), empty);
        // Unified logging, but not of GC.
        Path classLoad = write("classload.log", "[0.010s][info][class,load] java.lang.Object source: jrt:/java.base\n");
        assertOneLineNamingTheFormats(assertThrows(UnknownGcLogFormatException.class,
                () -> new GcLogAnalyzer().analyze(classLoad)), classLoad);
    }

    private static void assertOneLineNamingTheFormats(UnknownGcLogFormatException e, Path p) {
        String m = e.getMessage();
        assertTrue(m.startsWith(p.toString() + " is not a HotSpot unified GC log"), m);
        assertTrue(m.contains("Serial, Parallel, G1, ZGC, Shenandoah"), m);
        assertFalse(m.contains("\n"), m);
    }

    @Test
    void theStreamingFormTakesAnyReader() throws IOException {
        GcAnalysis a = new GcLogAnalyzer().analyze(new StringReader(G1_LOG), "stdin", Long.MIN_VALUE, Long.MAX_VALUE, 0.5);
        assertEquals(3, a.count());
        GcLogAccumulator acc = new GcLogAccumulator("live", Long.MIN_VALUE, Long.MAX_VALUE, 0.5);
        String[] lines = G1_LOG.split("\n");
        for (int i = 0; i < 3; i++) {
            acc.accept(lines[i]);
        }
        assertEquals(1, acc.result().count()); // results can be taken while the log grows
        for (int i = 3; i < lines.length; i++) {
            acc.accept(lines[i]);
        }
        assertEquals(3, acc.result().count());
    }
}
