package perflab.cli;

import perflab.testsupport.PerflabProcess;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import perflab.testsupport.Poll;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * perflab run/serve/drive as real processes against the real hello SUT (test-workloads/hello): the result files, and no process
 * left behind when the user interrupts, when the SUT crashes, or when perflab itself is SIGKILLed.
 */
class RunLifecycleIT {
    private static final String HELLO = PerflabProcess.testWorkload("hello");

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path work;

    @Test
    void completeRunWritesEveryResultFile() throws Exception {
        Path out = work.resolve("run");
        try (PerflabProcess p = PerflabProcess.startWith(work, HELLO, "run", "hello", "--clients", "4", "--warmup", "2s",
                "--duration", "3s", "--heap", "64m", "--gc", "serial", "--jvm", "-Xmn4m", "--seed", "7", "--jfr", "--out",
                out.toString())) {
            assertEquals(0, p.await(Duration.ofSeconds(120)), p.err());
            assertTrue(p.out().contains("=============Overall Test Result============"), p.out());
            assertTrue(p.out().contains("Overall Throughput: echo"), p.out());
            assertTrue(p.out().lines().anyMatch(l -> l.startsWith("[measure]") && l.contains("sut cpu") && l.contains(" gc ")),
                    "the live line shows SUT CPU and GC: " + p.out());
            assertFalse(p.err().contains("warning"), p.err());
        }
        JsonNode summary = JSON.readTree(out.resolve("summary.json").toFile());
        assertTrue(summary.get("complete").asBoolean());
        assertEquals("hello", summary.get("workload").asText());
        assertEquals("jetty", summary.get("stack").asText());
        assertEquals("closed", summary.get("model").asText());
        assertEquals(0, summary.get("errors").get("total").asLong(), summary.toString());
        assertTrue(summary.get("requests").asLong() > 100, summary.toString());
        assertTrue(summary.get("throughput").asDouble() > 0);
        assertTrue(summary.get("latencyMs").get("p99").asDouble() > 0);
        assertTrue(summary.get("sut").get("cpuSeconds").asDouble() > 0, summary.toString());
        assertTrue(summary.get("sut").get("cpuMicrosPerRequest").asDouble() > 0, summary.toString());
        assertTrue(summary.get("driver").get("cpuSeconds").asDouble() > 0);
        JsonNode sut = summary.get("sut");
        assertTrue(sut.get("cpuUserSeconds").asDouble() > 0, sut.toString());
        assertTrue(sut.has("cpuSystemSeconds"), sut.toString());
        assertEquals(sut.get("cpuPercent").asDouble() / summary.get("machine").get("cpus").asInt(),
                sut.get("cpuPercentOfMachine").asDouble(), 0.01, sut.toString());
        assertTrue(sut.get("rssMb").asDouble() > 20, sut.toString());
        assertTrue(sut.get("maxRssMb").asDouble() >= sut.get("rssMb").asDouble(), sut.toString());
        assertTrue(sut.get("threads").asInt() > 5, sut.toString());
        // the compiler threads' CPU is part of the SUT's: known (a HotSpot JVM) and no more than the whole
        assertTrue(sut.get("jitCpuSeconds").isNumber(), sut.toString());
        assertTrue(sut.get("jitCpuSeconds").asDouble() >= 0
                && sut.get("jitCpuSeconds").asDouble() <= sut.get("cpuSeconds").asDouble() + 0.02, sut.toString());
        double machineCpu = summary.get("machine").get("cpuPercent").asDouble();
        assertTrue(machineCpu > 0 && machineCpu <= 100, summary.toString());
        JsonNode network = summary.get("network");
        assertEquals("lo", network.get("interface").asText(), network.toString());
        assertTrue(network.get("loopback").asBoolean());
        double driverBytes = network.get("driverBytesPerRequest").asDouble();
        assertTrue(driverBytes > 1000, network.toString()); // a 1 KB echo request and its answer
        // loopback counts both directions in and out: at least the driver's bytes at its throughput
        assertTrue(network.get("bytesInPerSec").asDouble() >= 0.9 * driverBytes * summary.get("throughput").asDouble(),
                summary.toString());
        assertTrue(network.get("packetsInPerSec").asDouble() > summary.get("throughput").asDouble(), network.toString());
        assertTrue(network.get("packetsOutPerSec").asDouble() > 0, network.toString());
        JsonNode gc = summary.get("gc");
        assertEquals("serial", gc.get("collector").asText(), summary.toString());
        // a 4 MB young generation fills in a few hundred requests, however few a busy machine lets through
        assertTrue(gc.get("count").asLong() > 0, "a 4 MB young generation collects in 3 s of load: " + gc);
        assertTrue(gc.get("totalPauseMs").asDouble() > 0, gc.toString());
        assertTrue(gc.get("overheadPercent").asDouble() > 0 && gc.get("overheadPercent").asDouble() < 100, gc.toString());
        assertTrue(gc.get("allocatedBytesPerRequest").asDouble() > 0, gc.toString());
        assertTrue(gc.has("cascades") && gc.has("cascadeSeconds") && gc.has("liveSetMb"), gc.toString());

        JsonNode run = JSON.readTree(out.resolve("run.json").toFile());
        assertEquals(7, run.get("seed").asLong());
        assertEquals("serial", run.get("effectiveJvm").get("collector").asText());
        assertEquals(64, run.get("effectiveJvm").get("heapMaxMb").asLong(), run.toString());
        assertTrue(run.get("commandLine").asText().contains("--seed 7"));
        assertTrue(run.get("commandLine").asText().endsWith(" --jfr"), run.toString());
        assertEquals(out.resolve("sut.jfr").toAbsolutePath().toString(), run.get("jfr").asText());
        assertTrue(run.get("sutCommand").toString().contains("-XX:StartFlightRecording=filename="), run.toString());
        assertTrue(run.get("environment").has("cpuModel"));

        // the latency log's measured intervals add up exactly to the summary's count
        long logged = 0;
        try (java.io.InputStream in = Files.newInputStream(out.resolve("latency.hlog"))) {
            org.HdrHistogram.HistogramLogReader reader = new org.HdrHistogram.HistogramLogReader(in);
            for (org.HdrHistogram.EncodableHistogram h; (h = reader.nextIntervalHistogram()) != null; ) {
                if ("measure".equals(h.getTag())) {
                    logged += ((org.HdrHistogram.Histogram) h).getTotalCount();
                }
            }
        }
        assertEquals(summary.get("successes").asLong(), logged, "latency.hlog's measured intervals");
        List<String> rows = Files.readAllLines(out.resolve("timeseries.csv"));
        assertTrue(rows.get(0).startsWith("second,phase"));
        assertTrue(rows.stream().anyMatch(r -> r.contains(",warmup,")), rows.toString());
        assertTrue(rows.stream().anyMatch(r -> r.contains(",measure,")), rows.toString());
        List<String> header = List.of(rows.get(0).split(","));
        for (String column : List.of("sutCpuPercent", "sutRssMb", "sutCpuUserPercent", "sutCpuSystemPercent",
                "sutCpuPercentOfMachine", "sutMaxRssMb", "sutThreads", "sutJitCpuPercent", "driverJitCpuPercent", "machineCpuPercent", "netPacketsInPerSec",
                "netPacketsOutPerSec", "netBytesInPerSec", "netBytesOutPerSec", "driverBytesPerRequest", "gcPauseMs",
                "gcHeapAfterMb")) {
            assertTrue(header.contains(column), column + " in " + header);
        }
        int pause = header.indexOf("gcPauseMs");
        int threads = header.indexOf("sutThreads");
        int net = header.indexOf("netBytesInPerSec");
        double pauses = 0;
        for (String row : rows.subList(1, rows.size())) {
            String[] f = row.split(",", -1);
            assertEquals(header.size(), f.length, row);
            assertFalse(f[pause].isEmpty(), "GC columns are filled at the end of the run: " + row);
            pauses += Double.parseDouble(f[pause]);
            assertTrue(Integer.parseInt(f[threads]) > 5, row);
            if (row.contains(",measure,")) {
                // a warm-up second can read 0 (seen once on a busy CI: the sampler's first interval); the window's never
                assertTrue(Double.parseDouble(f[net]) > 0, row);
            }
        }
        assertTrue(pauses > 0, "per-second GC pauses: " + rows);
        assertTrue(Files.size(out.resolve("sut.jfr")) > 0, "--jfr: the flight recording is written when the SUT stops");

        // perflab gc on the run's own log: the table and the JSON
        try (PerflabProcess p = PerflabProcess.startWith(work, HELLO, "gc", out.resolve("gc.log").toString())) {
            assertEquals(0, p.await(Duration.ofSeconds(60)), p.err());
            assertTrue(p.out().lines().anyMatch(l -> l.matches("collector\\s+serial")), p.out());
            assertTrue(p.out().contains("GC overhead"), p.out());
        }
        try (PerflabProcess p = PerflabProcess.startWith(work, HELLO, "gc", out.resolve("gc.log").toString(), "--json",
                "--from", Long.toString(System.currentTimeMillis() - 3_600_000L), "--cascade-threshold", "0.9")) {
            assertEquals(0, p.await(Duration.ofSeconds(60)), p.err());
            JsonNode json = JSON.readTree(p.out());
            assertEquals("serial", json.get("collector").asText());
            assertTrue(json.get("count").asLong() >= gc.get("count").asLong(), json.toString());
            assertEquals(0.9, json.get("cascadeThreshold").asDouble());
        }
        for (String file : List.of("latency.hlog", "service-time.hlog", "gc.log", "driver-gc.log", "sut.out", "sut-jvm.json")) {
            assertTrue(Files.size(out.resolve(file)) > 0, file + " is empty or missing");
        }
        assertTrue(Files.readString(out.resolve("gc.log")).contains("Using Serial"), "the SUT's GC log names the collector");
        assertGone(run.get("effectiveJvm").get("pid").asLong());
    }

    /**
     * --profile cpu on a real run: async-profiler attached to the SUT for the measured window leaves a flame graph,
     * the collapsed stacks with the SUT's own request path in them, and the report links both; an automatic
     * warm-up says how it ended.
     */
    @Test
    void profileLeavesAFlameGraphOfTheSutsRequestPath() throws Exception {
        Path out = work.resolve("profiled");
        // auto:5s: a closed model's warm-up is judged on 20 s of throughput trend (WarmupJudge), so a maximum below
        // that ends at the maximum, 5 s as it did at 10; the profile needs the request path, not a warm SUT
        try (PerflabProcess p = PerflabProcess.startWith(work, HELLO, "run", "hello", "--clients", "4", "--warmup", "auto:5s",
                "--duration", "4s", "--heap", "128m", "--gc", "parallel", "--profile", "cpu", "--out", out.toString())) {
            assertEquals(0, p.await(Duration.ofSeconds(120)), p.err());
            assertTrue(p.out().contains("cpu profile of the sut: "), p.out());
            assertTrue(p.out().contains("perflab: the warm-up ended after ")
                    || p.out().contains("perflab: warning: the warm-up reached its maximum of 5 s"), p.out());
        }
        String html = Files.readString(out.resolve("profile-sut.html"));
        assertTrue(html.contains("<html") || html.contains("<!DOCTYPE"), "a flame graph page: " + html.substring(0, Math.min(200, html.length())));
        String collapsed = Files.readString(out.resolve("profile-sut.collapsed"));
        assertTrue(collapsed.lines().anyMatch(l -> l.contains("perflab/example/hello/")), "the hello SUT's request path is in the profile");
        JsonNode run = JSON.readTree(out.resolve("run.json").toFile());
        assertTrue(run.get("commandLine").asText().contains("--profile cpu"), run.toString());
        JsonNode top = run.get("profiles").get("sut").get("topFrames");
        assertTrue(top.size() > 0, run.toString());
        assertTrue(Files.readString(out.resolve("report.html")).contains("profile-sut.html"), "the report links the flame graph");
        JsonNode warmup = JSON.readTree(out.resolve("summary.json").toFile()).get("warmup");
        assertTrue(List.of("steady", "max").contains(warmup.get("endedBy").asText()), warmup.toString());
        assertEquals(5.0, warmup.get("maxSeconds").asDouble(), warmup.toString());
    }

    @Test
    void ctrlCKeepsPartialResultsAndStopsTheSut() throws Exception {
        Path out = work.resolve("interrupted");
        try (PerflabProcess p = PerflabProcess.startWith(work, HELLO, "run", "hello", "--clients", "2", "--warmup", "1s",
                "--duration", "60s", "--out", out.toString())) {
            awaitMeasuredSeconds(out, 2, p);
            long sutPid = sutPid(out);
            p.signal("INT");
            assertEquals(130, p.await(Duration.ofSeconds(60)), p.err());
            JsonNode summary = JSON.readTree(out.resolve("summary.json").toFile());
            assertFalse(summary.get("complete").asBoolean());
            assertEquals("interrupted", summary.get("endReason").asText());
            assertTrue(summary.get("requests").asLong() > 0, summary.toString());
            assertGone(sutPid);
        }
    }

    @Test
    void sutCrashIsReportedWithWhatWasMeasured() throws Exception {
        Path out = work.resolve("crash");
        try (PerflabProcess p = PerflabProcess.startWith(work, HELLO, "run", "hello", "--clients", "2", "--warmup", "1s",
                "--duration", "60s", "--out", out.toString())) {
            awaitMeasuredSeconds(out, 2, p);
            long sutPid = sutPid(out);
            new ProcessBuilder("kill", "-9", Long.toString(sutPid)).start().waitFor();
            assertEquals(1, p.await(Duration.ofSeconds(60)), p.err());
            JsonNode summary = JSON.readTree(out.resolve("summary.json").toFile());
            assertFalse(summary.get("complete").asBoolean());
            assertTrue(summary.get("endReason").asText().contains("SUT exited unexpectedly"), summary.toString());
            assertTrue(summary.get("sut").get("crashed").asBoolean(), summary.toString());
            assertTrue(summary.get("successes").asLong() > 0, summary.toString());
        }
    }

    @Test
    void sigkillOfPerflabLeavesNoSut() throws Exception {
        Path out = work.resolve("killed");
        try (PerflabProcess p = PerflabProcess.startWith(work, HELLO, "run", "hello", "--clients", "2", "--warmup", "1s",
                "--duration", "60s", "--out", out.toString())) {
            awaitMeasuredSeconds(out, 1, p);
            long sutPid = sutPid(out);
            p.signal("KILL");
            p.process.waitFor();
            assertGone(sutPid);
            // what was measured until then is on disk, second by second
            assertTrue(Files.readAllLines(out.resolve("timeseries.csv")).size() > 1);
        }
    }

    @Test
    void driveAgainstServe() throws Exception {
        Path serveDir = work.resolve("serve");
        Files.createDirectories(serveDir);
        try (PerflabProcess server = PerflabProcess.startWith(serveDir, HELLO, "serve", "hello", "--port", "0", "--jfr", "--out",
                serveDir.resolve("logs").toString())) {
            String url = awaitLine(server, Pattern.compile("at (http://127\\.0\\.0\\.1:\\d+/\\S+)"));
            Path driveDir = work.resolve("drive");
            Files.createDirectories(driveDir);
            try (PerflabProcess driver = PerflabProcess.startWith(driveDir, HELLO, "drive", "hello", "--target", url,
                    "--clients", "2", "--warmup", "1s", "--duration", "2s", "--out", driveDir.resolve("r").toString())) {
                assertEquals(0, driver.await(Duration.ofSeconds(60)), driver.err());
            }
            JsonNode summary = JSON.readTree(driveDir.resolve("r/summary.json").toFile());
            assertEquals("external", summary.get("stack").asText());
            assertEquals(0, summary.get("errors").get("total").asLong());
            assertTrue(summary.get("successes").asLong() > 0);
            // no SUT of its own: no sut or gc figures; the network and the machine are still measured
            assertFalse(summary.has("sut") || summary.has("gc"), summary.toString());
            assertEquals("lo", summary.get("network").get("interface").asText(), summary.toString());
            assertTrue(summary.get("network").get("packetsInPerSec").asDouble() > 0, summary.toString());
            assertTrue(summary.get("machine").get("cpuPercent").asDouble() > 0, summary.toString());
            long sutPid = JSON.readTree(serveDir.resolve("logs/sut-jvm.json").toFile()).get("pid").asLong();
            server.signal("INT");
            server.await(Duration.ofSeconds(30));
            assertGone(sutPid);
            assertTrue(Files.size(serveDir.resolve("logs/sut.jfr")) > 0, "serve --jfr: written when the SUT stops");
        }
    }

    private static String awaitLine(PerflabProcess p, Pattern pattern) throws Exception {
        return p.awaitLine(pattern);
    }

    private static void awaitMeasuredSeconds(Path out, int seconds, PerflabProcess p) throws Exception {
        Path csv = out.resolve("timeseries.csv");
        Poll.until(seconds + " measured seconds in " + csv, Duration.ofSeconds(90), () -> {
            if (!p.process.isAlive()) {
                throw new AssertionError("perflab ended early: " + p.err());
            }
            return Files.exists(csv) ? Files.readAllLines(csv).stream().filter(l -> l.contains(",measure,")).count() : 0L;
        }, n -> n >= seconds);
    }

    private static long sutPid(Path out) throws IOException {
        return JSON.readTree(out.resolve("sut-jvm.json").toFile()).get("pid").asLong();
    }

    private static void assertGone(long pid) throws InterruptedException {
        PerflabProcess.assertGone(pid);
    }
}
