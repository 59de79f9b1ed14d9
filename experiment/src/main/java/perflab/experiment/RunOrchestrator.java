package perflab.experiment;

import perflab.core.config.RunConfig;
import perflab.core.result.AtomicFiles;
import perflab.core.result.Json;
import perflab.core.result.LatencySummary;
import perflab.core.result.RunSummary;
import perflab.core.result.Steadiness;
import perflab.core.sut.EffectiveJvm;
import perflab.core.traffic.ErrorKind;
import perflab.core.traffic.Traffic;
import perflab.core.workload.StackInfo;
import perflab.core.workload.TrafficOptions;
import perflab.core.workload.Workload;
import perflab.driver.ConnectionPolicy;
import perflab.driver.DriverResult;
import perflab.driver.LoadDriver;
import perflab.driver.LoadSpec;
import perflab.core.result.gc.GcAnalysis;
import perflab.monitor.NetworkCounters;
import perflab.monitor.RunMonitor;
import perflab.monitor.gc.GcLogAnalyzer;
import perflab.monitor.gc.UnknownGcLogFormatException;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One run, start to end: start the SUT JVM with the settings under test (unless driving a given target),
 * drive it through warm-up and the measured window, stop it gracefully, and write every result file. A run
 * that is interrupted (Ctrl-C) or whose SUT crashes still writes what it measured, marked incomplete.
 */
public final class RunOrchestrator {
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STOP_GRACE = Duration.ofSeconds(15);

    private final Path perflabHome;
    private final Path resultsRoot;
    private final PrintStream console;
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile LoadDriver driver;
    private volatile boolean interrupted;
    private volatile String sutExit;
    private boolean jfr;

    /** @param console where progress and the summary go; null for --quiet */
    public RunOrchestrator(Path perflabHome, Path resultsRoot, PrintStream console) {
        this.perflabHome = perflabHome;
        this.resultsRoot = resultsRoot;
        this.console = console;
    }

    /**
     * Records a flight recording of the SUT into the run directory ({@code sut.jfr}, JFR's "profile" settings,
     * written when the SUT exits). Returns this orchestrator.
     */
    public RunOrchestrator recordJfr(boolean on) {
        this.jfr = on;
        return this;
    }

    /**
     * Asks a running run to stop early (Ctrl-C) and waits, bounded, until it has written its results.
     * Safe to call from a shutdown hook.
     */
    public void interrupt(Duration wait) {
        interrupted = true;
        LoadDriver d = driver;
        if (d != null) {
            d.stop();
        }
        try {
            finished.await(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public RunOutcome run(RunConfig config, Workload workload) throws RunFailure, IOException {
        try {
            return runOnce(config, workload);
        } finally {
            finished.countDown();
        }
    }

    private RunOutcome runOnce(RunConfig config, Workload workload) throws RunFailure, IOException {
        // Validate everything that can be validated before anything starts.
        workload.operation(config.operation());
        StackInfo stack = config.target() == null ? workload.stack(config.stack()) : null;
        List<String> sutCommand = null;
        Path runDir = config.out() != null ? RunDirectory.explicit(Path.of(config.out()))
                : RunDirectory.create(resultsRoot, workload.name(), config.operation(), LocalDateTime.now());
        if (stack != null) {
            sutCommand = SutCommand.build(config.sut(), stack, perflabHome, runDir, jfr);
        }
        URI probeTarget = config.target() == null ? null : serviceUri(config.target(), workload);
        Instant startedAt = Instant.now();
        Map<String, Object> runJson = new LinkedHashMap<>();
        runJson.put("runDirectory", runDir.toAbsolutePath().toString());
        runJson.put("commandLine", RepeatCommand.of(config) + (jfr && sutCommand != null ? " --jfr" : ""));
        runJson.put("seed", config.load().seed());
        runJson.put("startedAt", startedAt.toString());
        runJson.put("config", config);
        runJson.put("environment", RunEnvironment.describe(perflabHome));
        runJson.put("driverJvm", EffectiveJvm.describe());
        if (sutCommand != null) {
            runJson.put("sutCommand", sutCommand);
            if (jfr) {
                runJson.put("jfr", runDir.resolve(SutCommand.JFR_FILE).toAbsolutePath().toString());
            }
        }
        Json.write(runDir.resolve("run.json"), runJson);
        if (console != null) {
            console.println("perflab: results go to " + runDir);
        }

        Path driverGcLog = runDir.resolve("driver-gc.log");
        DriverJvm.logGcTo(driverGcLog);
        if (config.driverCpus() != null) {
            DriverJvm.pinTo(config.driverCpus());
        }
        SutProcess sut = null;
        try {
            URI target;
            if (sutCommand != null) {
                sut = SutProcess.start(sutCommand, runDir, READY_TIMEOUT);
                EffectiveJvm jvm = readEffectiveJvm(runDir);
                runJson.put("effectiveJvm", jvm);
                Json.write(runDir.resolve("run.json"), runJson);
                if (console != null && jvm != null) {
                    console.printf("perflab: SUT pid %d on port %d: %s %s, %s, heap %d MB, %d CPUs%n", sut.pid(),
                            sut.port(), jvm.vmName(), jvm.javaVersion(), jvm.collector(), jvm.heapMaxMb(),
                            jvm.availableProcessors());
                }
                target = URI.create("http://127.0.0.1:" + sut.port() + workload.servicePath());
                sut.onUnexpectedExit(code -> {
                    sutExit = "the SUT exited unexpectedly (exit status " + code + ")";
                    LoadDriver d = driver;
                    if (d != null) {
                        d.stop(sutExit);
                    }
                });
            } else {
                target = probeTarget;
                checkReachable(target);
            }
            runJson.put("target", target.toString());
            Json.write(runDir.resolve("run.json"), runJson);
            return drive(config, workload, target, runDir, sut, runJson);
        } finally {
            if (sut != null) {
                int status = sut.stop(STOP_GRACE);
                runJson.put("sutExitStatus", status);
            }
            DriverJvm.stopGcLog(driverGcLog);
            runJson.put("endedAt", Instant.now().toString());
            Json.write(runDir.resolve("run.json"), runJson);
        }
    }

    private RunOutcome drive(RunConfig config, Workload workload, URI target, Path runDir, SutProcess sut,
                             Map<String, Object> runJson) throws IOException {
        RunConfig.Load load = config.load();
        Traffic traffic = workload.traffic(new TrafficOptions(config.operation(), load.payload(), target, load.seed(), load.extra()));
        LoadSpec spec = new LoadSpec(target, load.clients(), load.rate(),
                "poisson".equals(load.schedule()) ? LoadSpec.Schedule.POISSON : LoadSpec.Schedule.CONSTANT,
                load.duration(), load.requests(), load.warmup(), load.warmupRequests(), load.thinkTime(),
                ConnectionPolicy.parse(load.keepalive()), load.timeout(), load.deepCheck(), load.seed(), 0, 0,
                LoadSpec.HttpVersion.parse(load.http()), load.streamsPerConnection());
        double measureSeconds = load.duration() == null ? Double.NaN : load.duration().toMillis() / 1000.0;
        // the live line's "n/total": an automatic warm-up has no set length
        double warmupSeconds = load.warmupRequests() > 0 || load.warmupAuto() ? Double.NaN : load.warmup().toMillis() / 1000.0;
        long sutPid = sut == null ? -1 : sut.pid();
        DriverResult result;
        long driveStartMs;
        String iface = NetworkCounters.interfaceFor(target.getHost());
        Path gcLog = sut == null ? null : runDir.resolve("gc.log");
        RunRecorder recorder = new RunRecorder(runDir, sutPid, sut == null ? -1 : sut.backendPid(), iface, gcLog, console, warmupSeconds, measureSeconds,
                System.currentTimeMillis());
        try (recorder) {
            LoadDriver d = new LoadDriver(spec, traffic);
            driver = d;
            if (interrupted) {
                d.stop();
            }
            if (load.warmupAuto()) {
                recorder.endWarmupWhenWarm(load.rate() > 0, d::endWarmup);
            }
            WindowProfiles profiles = profiles(config, sut, runDir);
            if (profiles != null) {
                recorder.onMeasureStart(profiles::start);
            }
            driveStartMs = System.currentTimeMillis();
            try {
                result = d.run(recorder);
                if (profiles != null) {
                    runJson.put("profiles", profiles.stop());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                d.stop();
                throw new IOException("interrupted while driving");
            } finally {
                driver = null;
            }
            recorder.sample();
        }
        boolean crashed = sutExit != null;
        String endReason = crashed ? sutExit : interrupted ? "interrupted" : result.endReason();
        boolean complete = result.complete() && !crashed && !interrupted;
        GcAnalysis gc = gcLog == null ? null : analyzeGc(gcLog, result, sut.alive());
        RunSummary.Warmup warmup = warmup(load, result, driveStartMs, recorder);
        runJson.put("warmupEndedBy", warmup.endedBy());
        runJson.put("warmupSeconds", warmup.seconds());
        if (console != null) {
            console.println((warmup.ranOut() ? "perflab: warning: " : "perflab: ") + "the warm-up "
                    + perflab.report.ConsoleSummary.warmup(warmup));
        }
        RunSummary summary = summarize(config, workload, stack(config), result, recorder, sut, complete, endReason, gc,
                warmup);
        Json.write(runDir.resolve("summary.json"), summary);
        if (!result.errorSamples().isEmpty()) {
            AtomicFiles.write(runDir.resolve("errors.txt"), String.join(System.lineSeparator(), result.errorSamples()) + System.lineSeparator());
        }
        if (console != null) {
            console.print(perflab.report.ConsoleSummary.render(summary));
            console.println("perflab: results in " + runDir);
        }
        perflab.report.RunReport.writeQuietly(runDir, console); // report.html; never fails the run
        int status = complete ? RunOutcome.OK : interrupted && !crashed ? RunOutcome.INTERRUPTED : RunOutcome.FAILED;
        return new RunOutcome(runDir, summary, status);
    }

    /** The processes --profile watches: the SUT and a back end of its own; null without --profile or a SUT. */
    private WindowProfiles profiles(RunConfig config, SutProcess sut, Path runDir) {
        if (config.profile() == null || sut == null) {
            return null;
        }
        Map<String, Long> pids = new LinkedHashMap<>();
        pids.put("sut", sut.pid());
        if (sut.backendPid() > 0) {
            pids.put("backend", sut.backendPid());
        }
        return new WindowProfiles(config.profile(), pids, runDir, console);
    }

    /** How the warm-up ended: the rule of {@link RunSummary.Warmup}. */
    static RunSummary.Warmup warmup(RunConfig.Load load, DriverResult r, long driveStartMs, RunRecorder recorder) {
        double seconds = Math.max(0, (r.measureStartEpochMs() - driveStartMs) / 1000.0);
        Double max = load.warmupAuto() ? load.warmup().toMillis() / 1000.0 : null;
        String endedBy;
        String because = null;
        boolean reachedWindow = r.measureEndEpochMs() > r.measureStartEpochMs() || r.requests() > 0;
        if (load.warmupRequests() > 0) {
            endedBy = "requests";
        } else if (load.warmup().isZero()) {
            endedBy = "none";
        } else if (!reachedWindow) {
            endedBy = "stopped";
        } else if (!load.warmupAuto()) {
            endedBy = "time";
        } else if (recorder.warmedUp()) {
            endedBy = "steady";
        } else {
            endedBy = "max";
            because = recorder.notWarmBecause();
        }
        return new RunSummary.Warmup(endedBy, round(seconds), max, because);
    }

    /**
     * The SUT's GC in the measured window. Never fails the run: a missing or unreadable log gives null and
     * a one-line warning.
     */
    private GcAnalysis analyzeGc(Path gcLog, DriverResult r, boolean sutAlive) {
        String problem;
        try {
            if (!Files.exists(gcLog)) {
                problem = gcLog + " is missing";
            } else if (r.measureEndEpochMs() <= r.measureStartEpochMs()) {
                return null; // no measured window
            } else {
                // A live SUT's log is current up to now: a window ending without GC keeps its full length.
                long now = System.currentTimeMillis();
                GcLogAnalyzer analyzer = new GcLogAnalyzer();
                GcAnalysis a = sutAlive
                        ? analyzer.analyzeLive(gcLog, r.measureStartEpochMs(), r.measureEndEpochMs(),
                                GcAnalysis.DEFAULT_CASCADE_THRESHOLD, now)
                        : analyzer.analyze(gcLog, r.measureStartEpochMs(), r.measureEndEpochMs(),
                                GcAnalysis.DEFAULT_CASCADE_THRESHOLD);
                return a.withRequests(r.successes());
            }
        } catch (UnknownGcLogFormatException e) {
            problem = e.getMessage();
        } catch (IOException | RuntimeException e) {
            problem = gcLog + ": " + e;
        }
        System.err.println("perflab: warning: no GC figures in summary.json: " + problem);
        return null;
    }

    private static String stack(RunConfig config) {
        return config.target() == null ? config.stack() : "external";
    }

    static RunSummary summarize(RunConfig config, Workload workload, String stack, DriverResult r,
                                RunRecorder recorder, SutProcess sut, boolean complete, String endReason,
                                GcAnalysis gc, RunSummary.Warmup warmup) {
        RunConfig.Load load = config.load();
        double seconds = r.measuredSeconds();
        double throughput = seconds > 0 ? r.successes() / seconds : 0;
        Map<String, Long> errors = new LinkedHashMap<>();
        for (ErrorKind kind : ErrorKind.values()) {
            errors.put(kind.jsonName(), r.errors().getOrDefault(kind, 0L));
        }
        errors.put("total", r.errorCount());
        RunMonitor.Window window = recorder.window(r.measureStartEpochMs(), r.measureEndEpochMs());
        RunSummary.Sut sutFigures = sut == null ? null : processFigures(sut.pid(), window.sut(), r, seconds,
                recorder.machineCpus(), sut.exitCode() != null && !complete ? Boolean.TRUE : Boolean.FALSE, sut.exitCode());
        RunSummary.Sut backendFigures = sut == null || sut.backendPid() <= 0 || window.backend() == null ? null
                : processFigures(sut.backendPid(), window.backend(), r, seconds, recorder.machineCpus(), null, null);
        RunSummary.Machine machine = Double.isNaN(window.machineCpuPercent()) ? null
                : new RunSummary.Machine(round(window.machineCpuPercent()), recorder.machineCpus());
        RunMonitor.NetworkWindow net = window.network();
        Double driverBytesPerRequest = r.requests() > 0
                ? round((double) (r.bytesSent() + r.bytesReceived()) / r.requests()) : null;
        RunSummary.Network network = new RunSummary.Network(net == null ? null : net.iface(),
                net != null && "lo".equals(net.iface()),
                net == null ? null : round(net.packetsInPerSec()), net == null ? null : round(net.packetsOutPerSec()),
                net == null ? null : round(net.bytesInPerSec()), net == null ? null : round(net.bytesOutPerSec()),
                driverBytesPerRequest);
        RunSummary.Driver driverFigures = new RunSummary.Driver(round(r.driverCpuSeconds()),
                round(seconds > 0 ? 100 * r.driverCpuSeconds() / seconds : 0), r.saturated(), r.saturationReason(),
                round(r.driverGcPauseMs()), r.connectionsOpened(),
                load.rate() > 0 ? LatencySummary.of(r.lag()) : null, r.bytesSent(), r.bytesReceived());
        // The harness's meaning: each client's measured seconds summed; every client runs the whole window.
        double clientSeconds = load.clients() * seconds;
        RunSummary.Harness harness = new RunSummary.Harness(
                clientSeconds > 0 ? round(r.successes() / clientSeconds) : 0,
                r.successes() > 0 ? round(clientSeconds * 1000 / r.successes()) : 0, r.successes(), round(clientSeconds));
        return new RunSummary(workload.name(), stack, config.operation(), load.model(), load.clients(),
                load.rate() > 0 ? load.rate() : null, complete, endReason, round(seconds), r.requests(),
                r.successes(), errors, round(throughput), round(throughput / load.clients()),
                LatencySummary.of(r.latency()), LatencySummary.of(r.serviceTime()), LatencySummary.of(r.failedLatency()),
                Steadiness.of(recorder.measuredThroughputPerSecond()), driverFigures, sutFigures, machine, network, gc,
                harness, backendFigures, warmup, byKind(r, seconds));
    }

    /** summary.json's byKind: each request kind's figures, in the traffic's order. */
    static Map<String, RunSummary.Kind> byKind(DriverResult r, double seconds) {
        Map<String, RunSummary.Kind> byKind = new LinkedHashMap<>();
        r.byKind().forEach((kind, f) -> {
            Map<String, Long> errors = new LinkedHashMap<>();
            for (ErrorKind k : ErrorKind.values()) {
                errors.put(k.jsonName(), f.errors().getOrDefault(k, 0L));
            }
            errors.put("total", f.errorCount());
            byKind.put(kind, new RunSummary.Kind(f.requests(), f.successes(), errors,
                    round(seconds > 0 ? f.successes() / seconds : 0), LatencySummary.of(f.latency())));
        });
        return byKind;
    }

    /** A monitored process's figures over the measured window (the SUT, or the back end it started). */
    private static RunSummary.Sut processFigures(long pid, RunMonitor.SutWindow w, DriverResult r, double seconds,
                                                 int machineCpus, Boolean crashed, Integer exitCode) {
        double cpu = w == null ? Double.NaN : w.cpuSeconds();
        return new RunSummary.Sut(pid, round(cpu), w == null ? null : round(w.userSeconds()),
                w == null ? null : round(w.systemSeconds()), round(seconds > 0 ? 100 * cpu / seconds : 0),
                seconds > 0 && w != null ? round(100 * cpu / seconds / machineCpus) : null,
                r.successes() > 0 ? round(cpu * 1e6 / r.successes()) : null,
                cpu > 0 ? round(r.successes() / cpu) : null, w == null ? null : nullable(w.rssMb()),
                w == null ? null : nullable(w.maxRssMb()), w == null ? null : w.threads(), crashed, exitCode,
                w == null ? null : nullable(w.jitCpuSeconds()),
                w == null || seconds <= 0 ? null : nullable(100 * w.jitCpuSeconds() / seconds));
    }

    private static EffectiveJvm readEffectiveJvm(Path runDir) {
        Path file = runDir.resolve("sut-jvm.json");
        try {
            return Files.exists(file) ? Json.read(file, EffectiveJvm.class) : null;
        } catch (IOException e) {
            return null;
        }
    }

    /** A bare http://host:port target gets the workload's service path. */
    static URI serviceUri(String target, Workload workload) {
        URI uri;
        try {
            uri = URI.create(target);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--target: '" + target + "' is not a URL; use e.g. http://127.0.0.1:8080");
        }
        if (!"http".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null) {
            throw new IllegalArgumentException("--target: '" + target + "' is not an http:// URL with a host; use e.g. http://127.0.0.1:8080");
        }
        if (uri.getPath() == null || uri.getPath().isEmpty() || uri.getPath().equals("/")) {
            return URI.create("http://" + uri.getRawAuthority() + workload.servicePath());
        }
        return uri;
    }

    /** Fails fast, in one line, on a target that is not listening. */
    static void checkReachable(URI target) throws RunFailure {
        int port = target.getPort() > 0 ? target.getPort() : 80;
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(target.getHost(), port), 3000);
        } catch (IOException e) {
            throw new RunFailure("cannot connect to " + target.getHost() + ":" + port + " (" + e.getMessage()
                    + "); is the server running?");
        }
    }

    private static Double nullable(double v) {
        return Double.isNaN(v) ? null : round(v);
    }

    private static double round(double v) {
        return Double.isNaN(v) ? 0 : Math.round(v * 1000.0) / 1000.0;
    }
}
