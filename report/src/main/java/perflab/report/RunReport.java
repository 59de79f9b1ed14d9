package perflab.report;

import perflab.core.result.LatencySummary;
import perflab.core.result.RunSummary;
import perflab.core.result.gc.GcAnalysis;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * report.html of one run: what ran (configuration, effective JVM, environment), the summary's figures, and charts
 * of throughput over time with the warm-up ramp, latency over time, the latency distribution, GC pauses and the
 * SUT's CPU and memory.
 */
public final class RunReport {
    public static final String FILE = "report.html";

    private RunReport() {
    }

    /** Writes {@code runDir/report.html} and returns its path. */
    public static Path write(Path runDir) throws IOException {
        return page(ReportRun.load(runDir)).write(runDir.resolve(FILE));
    }

    /**
     * For the end of a run: writes the report and says where, never fails the run — a problem is one warning
     * line on stderr. Returns the path, or null.
     */
    public static Path writeQuietly(Path runDir, PrintStream console) {
        return quietly(() -> write(runDir), console);
    }

    /** A page writer that may fail with an I/O error. */
    interface PageWriter {
        Path write() throws IOException;
    }

    /** Runs {@code writer}; says where the page is, or prints one warning line instead of failing. */
    static Path quietly(PageWriter writer, PrintStream console) {
        try {
            Path file = writer.write();
            if (console != null) {
                console.println("perflab: report " + file);
            }
            return file;
        } catch (IOException | RuntimeException e) {
            System.err.println("perflab: warning: no report.html: " + e.getMessage());
            return null;
        }
    }

    public static HtmlPage page(ReportRun run) throws IOException {
        RunSummary s = run.summary();
        HtmlPage page = new HtmlPage("perflab run: " + run.title());
        page.paragraph(headline(run));
        notices(page, run);

        page.heading("What ran");
        page.code(orDash(run.runText("commandLine")));
        page.columns().subheading("Configuration").facts(configuration(run))
                .nextColumn().subheading("SUT JVM (effective)").facts(effectiveJvm(run))
                .nextColumn().subheading("Environment").facts(environment(run)).endColumns();

        if (s != null) {
            page.heading("Summary of the measured window");
            page.table(summaryTable(s));
            if (s.agents() != null && !s.agents().isEmpty()) {
                page.heading("By agent");
                page.paragraph("The load came from " + s.agents().size() + " agents (--agents); the run's figures above "
                        + "are their exact merge: counters added, histograms added, seconds added by their index "
                        + "(docs/distributed.md).");
                page.table(agentTable(s));
            }
            if (s.byKind() != null && s.byKind().size() > 1) {
                page.heading("By request kind");
                page.table(kindTable(s));
            }
            if (!s.loads().isEmpty()) {
                page.heading("Load sources beside the driver");
                page.table(loadSourceTable(s));
            }
            if (!s.figures().isEmpty() || s.server() != null) {
                page.heading(s.workload() + " figures");
                if (s.server() != null) {
                    page.paragraph("The server's own counters: " + s.server().samples() + " samples over "
                            + ReportNumbers.num(s.server().seconds()) + " s" + (s.server().missed() == 0 ? ""
                            : " (" + s.server().missed() + " missed)") + " from " + s.server().source()
                            + " (summary.json server, timeseries-server.csv).");
                }
                if (!s.figures().isEmpty()) {
                    page.table(figuresTable(s));
                }
            }
            if (!s.checks().isEmpty()) {
                page.heading("Checks of the server after the drive");
                HtmlTable checks = new HtmlTable("check", "result", "what it found");
                s.checks().forEach((name, c) -> checks.styledRow(c.failed() ? "bad" : null, name, c.status(), c.line()));
                page.table(checks);
            }
        }

        page.heading("Charts");
        List<RunReportCharts.Labeled> runs = List.of(new RunReportCharts.Labeled("run", run));
        if (run.timeseries().size() == 0) {
            page.paragraph("timeseries.csv has no rows: the run ended before its first second.");
        } else {
            page.chart(RunReportCharts.throughputOverTime("throughput", runs));
            page.chart(RunReportCharts.latencyOverTime("latency-time", runs));
        }
        Chart spectrum = RunReportCharts.latencySpectrum("latency-spectrum", runs);
        if (!spectrum.series().isEmpty()) {
            page.chart(spectrum);
        }
        if (RunReportCharts.hasGc(runs)) {
            page.chart(RunReportCharts.gcPauses("gc-pauses", runs));
        }
        if (RunReportCharts.hasSut(runs)) {
            page.chart(RunReportCharts.sutResources("sut-resources", runs));
        }
        profiles(page, run.dir());
        page.paragraph("Files: " + run.dir().toAbsolutePath() + " (run.json, summary.json, timeseries.csv, latency.hlog, "
                + "service-time.hlog, timeseries-kinds.csv, gc.log" + (s != null && !s.loads().isEmpty()
                ? ", timeseries-loads.csv, <load>.stat.csv" : "") + "; docs/results.md describes each).");
        return page;
    }

    /** The flame graphs of --profile (profile-NAME.html beside the page) and each one's hottest frames. */
    private static void profiles(HtmlPage page, java.nio.file.Path dir) throws IOException {
        List<java.nio.file.Path> graphs;
        try (java.util.stream.Stream<java.nio.file.Path> files = java.nio.file.Files.list(dir)) {
            graphs = files.filter(f -> f.getFileName().toString().matches("profile-[a-z0-9-]+\\.html")).sorted().toList();
        }
        if (graphs.isEmpty()) {
            return;
        }
        page.heading("Profiles of the measured window");
        for (java.nio.file.Path graph : graphs) {
            String file = graph.getFileName().toString();
            String name = file.substring("profile-".length(), file.length() - ".html".length());
            page.link("Flame graph of the " + name + " (async-profiler): " + file, file);
            java.nio.file.Path collapsed = dir.resolve("profile-" + name + ".collapsed");
            if (java.nio.file.Files.exists(collapsed)) {
                HtmlTable t = new HtmlTable("hottest frame (self)", "share of samples");
                for (ProfileFrames.Frame f : ProfileFrames.top(collapsed, 10)) {
                    t.row(f.name(), ReportNumbers.num(f.selfPercent(), "%"));
                }
                page.table(t);
            }
        }
    }

    private static String headline(ReportRun run) {
        RunSummary s = run.summary();
        StringBuilder out = new StringBuilder();
        if (s != null) {
            out.append(s.model()).append(" model, ").append(s.clients()).append(s.targetRate() != null
                    ? " connections at " + ReportNumbers.num(s.targetRate()) + " req/s" : " clients");
            out.append(", measured ").append(ReportNumbers.num(s.durationSeconds(), "s"));
        }
        String started = run.runText("startedAt");
        if (started != null) {
            out.append(out.length() > 0 ? ", " : "").append("started ").append(started);
        }
        return out.toString();
    }

    private static void notices(HtmlPage page, ReportRun run) {
        RunSummary s = run.summary();
        if (s == null) {
            page.notice("warn", "No summary.json: the run ended before writing its figures (killed?). The charts show what it recorded.");
            return;
        }
        if (!s.complete()) {
            page.notice("warn", "Incomplete run: " + s.endReason() + ". The figures cover what was measured until then.");
        }
        long errors = s.errors() == null ? 0 : s.errors().getOrDefault("total", 0L);
        if (errors > 0) {
            page.notice("warn", errors + " failed requests (" + errorKinds(s) + ").");
        }
        if (s.driver() != null && s.driver().saturated()) {
            page.notice("warn", "The driver, not the SUT, limited this run: " + s.driver().saturationReason() + ".");
        }
        if (s.warmup() != null && s.warmup().ranOut()) {
            page.notice("warn", "The warm-up " + ConsoleSummary.warmup(s.warmup()) + ".");
        }
        if (s.steady() != null && !s.steady().steady()) {
            page.notice("info", String.format(java.util.Locale.ROOT,
                    "Throughput was not steady in the measured window (cv %.3f, change %+.1f%% across %d s): read the throughput chart before the totals%s.",
                    s.steady().cv(), s.steady().driftPercent(), s.steady().seconds(),
                    ConsoleSummary.steadinessHint(s).replace(" — ", "; ")));
        }
    }

    private static String errorKinds(RunSummary s) {
        StringBuilder out = new StringBuilder();
        s.errors().forEach((k, v) -> {
            if (!"total".equals(k) && v > 0) {
                out.append(out.length() > 0 ? ", " : "").append(k).append(' ').append(v);
            }
        });
        return out.toString();
    }

    private static Map<String, String> configuration(ReportRun run) {
        Map<String, String> f = new LinkedHashMap<>();
        f.put("workload", run.runText("config.workload"));
        f.put("stack", run.runText("config.stack"));
        f.put("operation", run.runText("config.operation"));
        f.put("target", run.runText("target"));
        f.put("clients", run.runText("config.load.clients"));
        String rate = run.runText("config.load.rate");
        f.put("rate", rate == null || Double.parseDouble(rate) == 0 ? "closed model" : rate + " req/s (" + run.runText("config.load.schedule") + ")");
        f.put("duration", join(run.runText("config.load.duration"), run.runText("config.load.requests"), " requests"));
        f.put("warm-up", join(run.runText("config.load.warmup"), run.runText("config.load.warmupRequests"), " requests"));
        f.put("workload settings", run.runText("config.load.extra"));
        f.put("keep-alive", run.runText("config.load.keepalive"));
        f.put("protocol", run.runText("config.load.http"));
        f.put("think time", run.runText("config.load.thinkTime"));
        f.put("heap", run.runText("config.sut.heap"));
        f.put("collector", run.runText("config.sut.gc"));
        f.put("JVM flags", run.runText("config.sut.jvmFlags"));
        f.put("java home", run.runText("config.sut.javaHome"));
        f.put("SUT CPUs", run.runText("config.sut.cpus"));
        f.put("driver CPUs", run.runText("config.driverCpus"));
        f.put("server settings", run.runText("config.sut.settings"));
        f.put("seed", run.runText("seed"));
        return f;
    }

    private static String join(String time, String count, String unit) {
        if (count != null && !"0".equals(count)) {
            return count + unit;
        }
        return time;
    }

    private static Map<String, String> effectiveJvm(ReportRun run) {
        Map<String, String> f = new LinkedHashMap<>();
        String p = "effectiveJvm.";
        f.put("VM", join2(run.runText(p + "vmName"), run.runText(p + "javaVersion")));
        f.put("vendor", run.runText(p + "vmVendor"));
        f.put("collector", run.runText(p + "collector"));
        String init = run.runText(p + "heapInitialMb");
        String max = run.runText(p + "heapMaxMb");
        f.put("heap", init == null ? null : "initial " + init + " MB, max " + max + " MB");
        f.put("CPUs", run.runText(p + "availableProcessors"));
        f.put("large pages", run.runText(p + "useLargePages"));
        f.put("transparent huge pages", run.runText(p + "useTransparentHugePages"));
        f.put("compressed oops", run.runText(p + "useCompressedOops"));
        f.put("arguments", run.runText(p + "inputArguments"));
        f.put("pid", run.runText(p + "pid"));
        if (f.values().stream().allMatch(v -> v == null)) {
            f.put("SUT", "not perflab's (perflab drive): no JVM figures");
        }
        return f;
    }

    /** "26/2/1": which processor exactly (a model name such as "AMD EPYC" spans generations); null in older runs. */
    private static String cpuIdentity(ReportRun run, String p) {
        String family = run.runText(p + "family");
        return family == null ? null : family + "/" + run.runText(p + "model") + "/" + run.runText(p + "stepping");
    }

    private static Map<String, String> environment(ReportRun run) {
        Map<String, String> f = new LinkedHashMap<>();
        String p = "environment.";
        f.put("CPU", run.runText(p + "cpuModel"));
        f.put("CPU family/model/stepping", cpuIdentity(run, p + "host."));
        f.put("CPU MHz", run.runText(p + "host.mhz"));
        f.put("virtual machine", run.runText(p + "host.virtual"));
        f.put("memory", run.runText(p + "host.memTotal"));
        f.put("cores", run.runText(p + "cores"));
        f.put("OS", run.runText(p + "os"));
        f.put("distribution", run.runText(p + "distribution"));
        f.put("host", run.runText(p + "hostname"));
        f.put("THP mode", run.runText(p + "transparentHugePages"));
        f.put("driver JVM", join2(run.runText(p + "driverJavaVm"), null));
        f.put("perflab", run.runText(p + "perflabRevision"));
        f.put("started", run.runText("startedAt"));
        f.put("ended", run.runText("endedAt"));
        return f;
    }

    private static String join2(String a, String b) {
        if (a == null) {
            return b;
        }
        return b == null ? a : a + " " + b;
    }

    static HtmlTable summaryTable(RunSummary s) {
        HtmlTable t = new HtmlTable("figure", "value#", "detail");
        t.row("throughput", ReportNumbers.num(s.throughput(), "req/s"),
                ReportNumbers.num(s.throughputPerClient()) + " per client; " + s.successes() + " ok of " + s.requests()
                        + " requests in " + ReportNumbers.num(s.durationSeconds(), "s"));
        long errors = s.errors() == null ? 0 : s.errors().getOrDefault("total", 0L);
        t.styledRow(errors > 0 ? "bad" : null, "errors", Long.toString(errors), errors > 0 ? errorKinds(s) : "");
        latencyRows(t, "latency", s.latencyMs(), s.model().equals("open") ? "from the intended send time (coordinated-omission free)" : "from the send");
        if (s.serviceTimeMs() != null && !s.serviceTimeMs().equals(s.latencyMs())) {
            latencyRows(t, "service time", s.serviceTimeMs(), "from the actual send");
        }
        RunSummary.Sut sut = s.sut();
        if (sut != null) {
            t.row("SUT CPU", ReportNumbers.num(sut.cpuPercent(), "% of a core"),
                    ReportNumbers.num(sut.cpuPercentOfMachine(), "% of the machine") + "; user " + ReportNumbers.num(sut.cpuUserSeconds(), "s")
                            + ", system " + ReportNumbers.num(sut.cpuSystemSeconds(), "s"));
            t.row("SUT CPU per request", ReportNumbers.num(sut.cpuMicrosPerRequest(), "µs"),
                    ReportNumbers.num(sut.requestsPerCpuSecond()) + " requests per CPU-second");
            t.row("SUT memory", ReportNumbers.num(sut.rssMb(), "MB RSS"), "peak " + ReportNumbers.num(sut.maxRssMb(), "MB")
                    + ", " + (sut.threads() == null ? "—" : sut.threads()) + " threads");
            // a SUT run as several instances: the rows above are their sums, each one's share here
            s.instances().forEach((name, instance) -> t.row("SUT instance " + name,
                    ReportNumbers.num(instance.cpuPercent(), "% of a core"), ReportNumbers.num(instance.rssMb(), "MB RSS")
                            + (Boolean.TRUE.equals(instance.crashed()) ? ", ended early" : "")));
        }
        RunSummary.Database db = s.database();
        if (db != null) {
            t.row("database CPU", ReportNumbers.num(db.cpuPercent(), "% of a core"), db.process() + " (" + (db.processes() == null
                    ? "?" : db.processes()) + " processes), " + ReportNumbers.num(db.cpuPercentOfMachine(), "% of the machine"));
            t.row("database CPU per request", ReportNumbers.num(db.cpuMicrosPerRequest(), "µs"), "SUT + database "
                    + ReportNumbers.num(db.sutAndDatabaseCpuMicrosPerRequest(), "µs") + ", "
                    + ReportNumbers.num(db.requestsPerSutAndDatabaseCpuSecond()) + " requests per CPU-second");
            t.row("database memory", ReportNumbers.num(db.rssMb(), "MB"), "peak " + ReportNumbers.num(db.maxRssMb(), "MB")
                    + (db.processes() != null && db.processes() > 1 ? "; proportional set size of its processes summed "
                    + "(memory they share counted once)" : ""));
        }
        if (s.machine() != null) {
            t.row("machine CPU", ReportNumbers.num(s.machine().cpuPercent(), "%"), "of " + s.machine().cpus() + " CPUs, every process");
        }
        GcAnalysis gc = s.gc();
        if (gc != null) {
            t.styledRow(gc.overheadPercent() > 5 ? "bad" : null, "GC overhead", ReportNumbers.percent(gc.overheadPercent()),
                    gc.collector() + ": " + gc.pauseCount() + " pauses, total " + ReportNumbers.num(gc.totalPauseMs(), "ms"));
            t.row("GC pauses", ReportNumbers.num(gc.maxPauseMs(), "ms max"), "p50 " + ReportNumbers.num(gc.p50PauseMs(), "ms")
                    + ", p99 " + ReportNumbers.num(gc.p99PauseMs(), "ms") + "; collections: young " + gc.youngCount()
                    + ", mixed " + gc.mixedCount() + ", full " + gc.fullCount() + ", concurrent " + gc.concurrentCount());
            t.row("heap", ReportNumbers.num(gc.liveSetMb(), "MB live"), "allocation " + ReportNumbers.num(gc.allocationRateMbPerSec(), "MB/s")
                    + (gc.allocatedBytesPerRequest() == null ? "" : ", " + ReportNumbers.num(gc.allocatedBytesPerRequest()) + " bytes/request"));
        }
        if (s.network() != null && s.network().driverBytesPerRequest() != null) {
            t.row("network", ReportNumbers.num(s.network().driverBytesPerRequest(), "bytes/request"),
                    s.network().iface() + (s.network().bytesInPerSec() == null ? ""
                            : ": " + ReportNumbers.num(s.network().bytesInPerSec() / 1e6, "MB/s in") + (s.network().loopback() ? " (loopback: both directions)" : "")));
        }
        if (s.driver() != null) {
            t.styledRow(s.driver().saturated() ? "bad" : null, "driver", ReportNumbers.num(s.driver().cpuPercent(), "% CPU"),
                    (s.driver().saturated() ? "saturated: " + s.driver().saturationReason() + "; " : "")
                            + "GC pauses " + ReportNumbers.num(s.driver().gcPauseMs(), "ms"));
        }
        if (s.warmup() != null) {
            t.styledRow(s.warmup().ranOut() ? "bad" : null, "warm-up", s.warmup().endedBy(), ConsoleSummary.warmup(s.warmup()));
        }
        if (s.steady() != null) {
            t.styledRow(s.steady().steady() ? null : "bad", "steady", s.steady().steady() ? "yes" : "no",
                    String.format(java.util.Locale.ROOT, "cv %.3f, change %+.1f%% across %d s (trend %+.1f%%/min)",
                            s.steady().cv(), s.steady().driftPercent(), s.steady().seconds(), s.steady().trendPercentPerMin()));
        }
        return t;
    }

    /** A row per agent of a run driven from agents, and the merged row. */
    static HtmlTable agentTable(RunSummary s) {
        HtmlTable t = new HtmlTable("agent", "host", "CPUs#", "requests#", "req/s#", "errors#", "p50 ms#", "p99 ms#",
                "p99.9 ms#", "max ms#", "driver CPU µs/req#", "note");
        s.agents().forEach((name, a) -> {
            String note = a.lost() != null ? a.lost() : a.saturated() ? "saturated: " + a.saturationReason() : "";
            boolean bad = a.lost() != null || a.saturated() || a.errors() > 0;
            t.styledRow(bad ? "bad" : null, name, orDash(a.host()), Integer.toString(a.cpus()), Long.toString(a.requests()),
                    ReportNumbers.num(a.throughput()), Long.toString(a.errors()),
                    a.latencyMs() == null ? "—" : ReportNumbers.num(a.latencyMs().p50()),
                    a.latencyMs() == null ? "—" : ReportNumbers.num(a.latencyMs().p99()),
                    a.latencyMs() == null ? "—" : ReportNumbers.num(a.latencyMs().p999()),
                    a.latencyMs() == null ? "—" : ReportNumbers.num(a.latencyMs().max()),
                    a.cpuMicrosPerRequest() == null ? "—" : ReportNumbers.num(a.cpuMicrosPerRequest()), orDash(note));
        });
        long errors = s.errors().getOrDefault("total", 0L);
        Double cpuPerRequest = s.driver() == null || s.requests() == 0 ? null : s.driver().cpuSeconds() * 1e6 / s.requests();
        t.styledRow(s.complete() ? null : "bad", "merged", "—", "—", Long.toString(s.requests()),
                ReportNumbers.num(s.throughput()), Long.toString(errors), ReportNumbers.num(s.latencyMs().p50()),
                ReportNumbers.num(s.latencyMs().p99()), ReportNumbers.num(s.latencyMs().p999()),
                ReportNumbers.num(s.latencyMs().max()), cpuPerRequest == null ? "—" : ReportNumbers.num(cpuPerRequest),
                s.complete() ? "" : s.endReason());
        return t;
    }

    /** A row per request kind of the window (timeseries-kinds.csv has them per second). */
    static HtmlTable kindTable(RunSummary s) {
        HtmlTable t = new HtmlTable("kind", "requests#", "req/s#", "errors#", "p50 ms#", "p99 ms#", "p99.9 ms#", "max ms#");
        s.byKind().forEach((kind, k) -> {
            long errors = k.errors().getOrDefault("total", 0L);
            t.styledRow(errors > 0 ? "bad" : null, kind, Long.toString(k.requests()), ReportNumbers.num(k.throughput()),
                    Long.toString(errors), ReportNumbers.num(k.latencyMs().p50()), ReportNumbers.num(k.latencyMs().p99()),
                    ReportNumbers.num(k.latencyMs().p999()), ReportNumbers.num(k.latencyMs().max()));
        });
        return t;
    }

    /**
     * A row per load source beside the driver: what it started in the window (its whole periods inside it), ended
     * well and failed, and the window as its kind tells it (timeseries-loads.csv has it per period).
     */
    static HtmlTable loadSourceTable(RunSummary s) {
        HtmlTable t = new HtmlTable("load", "kind", "started#", "per second#", "ok#", "failed#", "the window");
        s.loads().forEach((name, f) -> t.styledRow(f.failed() > 0 || f.note() != null ? "bad" : null, name, f.kind(),
                f.started() + " " + f.unit() + "s", ReportNumbers.num(f.perSecond()), Long.toString(f.succeeded()),
                Long.toString(f.failed()), f.describe()));
        return t;
    }

    /** The workload's own figures (summary.json figures): a row each, a map's source in the last column. */
    static HtmlTable figuresTable(RunSummary s) {
        HtmlTable t = new HtmlTable("figure", "value", "source");
        s.figures().forEach((name, value) -> {
            Object source = value instanceof Map<?, ?> m ? m.get("source") : null;
            t.row(name, ConsoleSummary.figure(value), source == null ? "—" : source.toString());
        });
        return t;
    }

    private static void latencyRows(HtmlTable t, String what, LatencySummary l, String how) {
        if (l == null) {
            return;
        }
        t.row(what + " p50", ReportNumbers.num(l.p50(), "ms"), how + "; mean " + ReportNumbers.num(l.mean(), "ms"));
        t.row(what + " p99", ReportNumbers.num(l.p99(), "ms"), "p90 " + ReportNumbers.num(l.p90(), "ms") + ", p95 " + ReportNumbers.num(l.p95(), "ms"));
        t.row(what + " p99.9", ReportNumbers.num(l.p999(), "ms"), "max " + ReportNumbers.num(l.max(), "ms"));
    }

    private static String orDash(String s) {
        return s == null ? "—" : s;
    }
}
