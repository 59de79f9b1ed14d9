package perflab.report;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import perflab.core.result.RunSummary;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RunReportTest {
    @TempDir
    Path tmp;

    @Test
    void writesASelfContainedPageWithTheRunsChartsAndFigures() throws Exception {
        Path run = ReportFixtures.copyRun(tmp.resolve("run"));
        Path file = RunReport.write(run);
        assertEquals(run.resolve("report.html"), file);
        String html = Files.readString(file);
        assertTrue(html.contains("Chart.js v4.5.1"), "the library is inlined");
        assertFalse(html.matches("(?s).*(src|href)=\"https?:.*"), "nothing is fetched from the network");
        assertTrue(html.contains("soap-echo / lean / echoComplexTypeDoc"));
        assertTrue(html.contains("5,509 req/s"), "the summary's throughput");
        for (String chart : new String[]{"throughput", "latency-time", "latency-spectrum", "gc-pauses", "sut-resources"}) {
            assertTrue(html.contains("id=\"chart-" + chart + "\""), chart);
        }
        assertTrue(html.contains("SUT JIT compiler"), "the compiler threads' CPU beside the SUT's");
        assertEquals(count(html, "<script"), count(html, "</script>"), "every script element ends where it should");
    }

    @Test
    void aDatabaseHasItsRowsInTheSummary() throws Exception {
        String html = RunReport.summaryTable(ConsoleSummaryTest.withDatabase()).html();
        assertTrue(html.contains("database CPU per request"), html);
        assertTrue(html.contains("SUT + database 3,000 µs"), html);
        assertTrue(html.contains("postgres (14 processes)"), html);
        assertTrue(html.contains("proportional set size"), html);
        RunSummary old = ReportRun.load(ReportFixtures.copyRun(tmp.resolve("run"))).summary(); // written before it existed
        assertEquals(null, old.database());
        assertFalse(RunReport.summaryTable(old).html().contains("database"));
    }

    @Test
    void aRunFromAgentsHasARowPerAgentAndTheMergedOne() throws Exception {
        RunSummary fixture = ReportRun.load(ReportFixtures.copyRun(tmp.resolve("run"))).summary();
        perflab.core.result.LatencySummary latency = fixture.latencyMs();
        RunSummary s = fixture.withAgents(new java.util.LinkedHashMap<>(java.util.Map.of(
                "local-1", new RunSummary.Agent("vm", 11, 1, "17", null, 1200, 1200, 0, 400.0, latency, 0.03, 25.0, false, null),
                "local-2", new RunSummary.Agent("vm", 12, 1, "17", "lost: it closed its stream", 0, 0, 0, 0, null, 0, null,
                        false, null))));
        String html = RunReport.agentTable(s).html();
        assertTrue(html.contains("local-1") && html.contains("local-2") && html.contains("merged"), html);
        assertTrue(html.contains("lost: it closed its stream"), html);
        assertFalse(html.contains("lost: lost:"), html);
        assertTrue(html.contains(">1200<"), "agent 1's requests: " + html);
        assertTrue(html.contains(">25<") || html.contains(">25.0<") || html.contains(">25.00<"), "agent 1's CPU per request: " + html);
        Path run = ReportFixtures.copyRun(tmp.resolve("with-agents"));
        perflab.core.result.Json.write(run.resolve("summary.json"), s);
        assertTrue(Files.readString(RunReport.write(run)).contains("By agent"));
        assertFalse(Files.readString(RunReport.write(ReportFixtures.copyRun(tmp.resolve("plain")))).contains("By agent"),
                "a run from one driver has no agents' table");
    }

    @Test
    void escapesWhatItEmbeds() throws Exception {
        Path run = ReportFixtures.copyRun(tmp.resolve("run"));
        Path runJson = run.resolve("run.json");
        Files.writeString(runJson, Files.readString(runJson).replace("\"hostname\" : \"vm\"",
                "\"hostname\" : \"</script><img src=x onerror=alert(1)>\""));
        String html = Files.readString(RunReport.write(run));
        assertFalse(html.contains("<img src=x"), "HTML in a result file is shown as text");
        assertTrue(html.contains("&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;"));
        assertEquals(count(html, "<script"), count(html, "</script>"));
    }

    @Test
    void latencyDistributionComesFromTheMeasuredIntervalsOfTheHistogramLog() throws Exception {
        ReportRun run = ReportRun.load(ReportFixtures.copyRun(tmp.resolve("run")));
        RunSummary s = run.summary();
        Histogram measured = ReportLatency.merged(run.latencyLog(), "measure");
        assertNotNull(measured);
        // The log's intervals and the summary's histogram are cut at slightly different moments: a few requests apart.
        assertEquals(s.latencyMs().count(), measured.getTotalCount(), s.latencyMs().count() * 0.01);
        assertEquals(s.latencyMs().p99(), measured.getValueAtPercentile(99) / 1000.0, s.latencyMs().p99() * 0.02);
        ReportLatency.Spectrum spectrum = ReportLatency.spectrum(measured);
        assertEquals(1.0, spectrum.x()[0], 1e-9, "the spectrum starts at the 0th percentile");
        for (int i = 1; i < spectrum.ms().length; i++) {
            assertTrue(spectrum.ms()[i] >= spectrum.ms()[i - 1], "a percentile spectrum never falls");
            assertTrue(spectrum.x()[i] > spectrum.x()[i - 1]);
        }
        assertEquals(s.latencyMs().max(), spectrum.maxMs(), 0.2);
    }

    @Test
    void timeseriesPhasesGiveTheWarmupBand() throws Exception {
        ReportRun run = ReportRun.load(ReportFixtures.copyRun(tmp.resolve("run")));
        double[] warmup = run.timeseries().phaseRange("warmup");
        assertEquals(0, warmup[0], 1e-9);
        assertEquals(5, warmup[1], 1e-9);
        assertTrue(run.timeseries().has("gcPauseMs"));
        assertFalse(run.timeseries().has("noSuchColumn"));
    }

    @Test
    void aDirectoryThatIsNotAResultGetsOneLine() throws Exception {
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RunReport.write(empty));
        assertTrue(e.getMessage().contains("is not a perflab run directory"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> RunReport.write(tmp.resolve("missing")));
        assertEquals("no such directory: " + tmp.resolve("missing"), e.getMessage());
        Path broken = Files.createDirectories(tmp.resolve("broken"));
        Files.writeString(broken.resolve("summary.json"), "{ not json");
        e = assertThrows(IllegalArgumentException.class, () -> RunReport.write(broken));
        assertTrue(e.getMessage().startsWith(broken.resolve("summary.json") + " is not a perflab summary"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
    }

    @Test
    void aRunKilledBeforeItsSummaryStillGetsAPage() throws Exception {
        Path run = ReportFixtures.copyRun(tmp.resolve("run"));
        Files.delete(run.resolve("summary.json"));
        String html = Files.readString(RunReport.write(run));
        assertTrue(html.contains("No summary.json"));
        assertTrue(html.contains("id=\"chart-throughput\""));
    }

    static int count(String s, String what) {
        Matcher m = Pattern.compile(Pattern.quote(what)).matcher(s);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }
}
