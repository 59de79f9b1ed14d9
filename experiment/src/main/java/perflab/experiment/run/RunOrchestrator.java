package perflab.experiment.run;

import perflab.core.config.RunConfig;
import perflab.core.result.Json;
import perflab.core.result.RunSummary;
import perflab.core.server.ServerPlan;
import perflab.core.sut.EffectiveJvm;
import perflab.core.workload.SutInstances;
import perflab.core.workload.Workload;
import perflab.driver.ConnectionPolicy;
import perflab.agents.AgentsDrive;
import perflab.agents.AgentsFailure;
import perflab.agents.AgentsSpec;
import perflab.driver.Drive;
import perflab.driver.DriverResult;
import perflab.driver.LoadDriver;
import perflab.driver.LoadSpec;
import perflab.monitor.NetworkCounters;
import perflab.monitor.RunMonitor;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One run, start to end, in sequence: lay out and check everything (traffic, the server side's commands),
 * start the SUT and its companions with the settings under test (unless driving a given target), drive it
 * through warm-up and the measured window, stop them gracefully, and write every result file. What the run
 * was goes into run.json ({@link RunManifest}), its figures into summary.json ({@link RunSummarizer}). A run
 * that is interrupted (Ctrl-C) or whose SUT crashes still writes what it measured, marked incomplete.
 */
public final class RunOrchestrator {
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STOP_GRACE = Duration.ofSeconds(15);
    /**
     * A load source's work still open when the drive has ended (and the checks after it waited for calls to settle)
     * is outside the window and may wait for a peer that has stopped (a SIP call's hang-up from a browser that will
     * never come): a short grace, or every such run ends with a wait for nothing.
     */
    static final Duration SOURCES_STOP_GRACE = Duration.ofSeconds(5);

    private final Path perflabHome;
    private final Path resultsRoot;
    private final PrintStream console;
    private final StartLines startLines;
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile Drive driver;
    /** The run's load sources once checked: a Ctrl-C that outlasts the run's own ending stops them itself. */
    private volatile LoadSources sources;
    private volatile boolean interrupted;
    /** The run's server side as laid out: each SUT process's own files are where its kind of server put them. */
    private volatile ServerLaunch launch;
    /** Why a process of the run's server side ended it by exiting, or null. */
    private volatile String processExit;
    private boolean jfr;

    /** @param console where progress and the summary go; null for --quiet */
    public RunOrchestrator(Path perflabHome, Path resultsRoot, PrintStream console) {
        this.perflabHome = perflabHome;
        this.resultsRoot = resultsRoot;
        this.console = console;
        this.startLines = new StartLines(console);
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
        Drive d = driver;
        if (d != null) {
            d.stop();
        }
        try {
            if (!finished.await(wait.toMillis(), TimeUnit.MILLISECONDS)) {
                // still starting the server side (a long population, say): its processes die with their stdin when
                // perflab exits, but a load source's tool may outlive it until its own time limit
                LoadSources loads = sources;
                if (loads != null) {
                    loads.stop(Duration.ZERO);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public RunOutcome run(RunConfig config, Workload workload) throws RunFailure, IOException {
        RunOutcome outcome = null;
        if (config.recording() != null && config.recording().history() != null) {
            perflab.history.HistoryRecorder.prepare(Path.of(config.recording().history()));
        }
        try {
            outcome = runOnce(config, workload);
            return outcome;
        } finally {
            // before the latch: a Ctrl-C's hook waits on it, so that an interrupted run is recorded with what it measured
            if (outcome != null) {
                record(config.recording(), outcome.directory());
            }
            finished.countDown();
        }
    }

    /** Puts the finished run into the results history, if it goes into one; trouble there is a warning, never a failure. */
    private void record(RunConfig.Recording recording, Path runDir) {
        if (recording == null || recording.history() == null) {
            return;
        }
        var recorded = perflab.history.HistoryRecorder.record(Path.of(recording.history()), runDir);
        if (recorded.warning() != null) {
            System.err.println(recorded.warning());
        } else if (console != null) {
            console.printf(java.util.Locale.ROOT, "perflab: history: run %d recorded in %s (%.0f ms)%n", recorded.id(),
                    recording.history(), recorded.millis());
        }
    }

    private RunOutcome runOnce(RunConfig config, Workload workload) throws RunFailure, IOException {
        LoadSources sources = RunPreflight.check(config, workload, perflabHome);
        this.sources = sources;
        URI givenTarget = config.target() == null ? null : RunPreflight.serviceUri(config.target(), workload);
        Path runDir = config.out() != null ? RunDirectory.explicit(Path.of(config.out()))
                : RunDirectory.create(resultsRoot, workload.name(), config.operation(), LocalDateTime.now());
        ServerLaunch launch = config.target() == null ? ServerLaunch.plan(workload, config.stack(), config.sut(), perflabHome, runDir, jfr,
                sources.declared()) : null;
        this.launch = launch;
        RunManifest manifest = new RunManifest(runDir);
        manifest.commandLine = RepeatCommand.of(config, workload) + (jfr && launch != null ? " --jfr" : "");
        manifest.seed = config.load().seed();
        manifest.startedAt = Instant.now().toString();
        manifest.config = config;
        manifest.environment = RunEnvironment.describe(perflabHome);
        manifest.driverJvm = EffectiveJvm.describe();
        if (config.sut().server() != null) {
            manifest.server = RunManifest.ServerFileEntry.of(config.sut().server(), launch);
        }
        if (launch != null) {
            manifest.sutCommand = launch.sut().command();
            if (launch.sut().sut().jfr() != null) {
                manifest.jfr = runDir.resolve(launch.sut().sut().jfr()).toAbsolutePath().toString();
            }
        }
        manifest.write();
        if (console != null) {
            console.println("perflab: results go to " + runDir);
        }

        Path driverGcLog = runDir.resolve("driver-gc.log");
        DriverJvm.logGcTo(driverGcLog);
        if (config.driverCpus() != null && config.agents() == null) {
            DriverJvm.pinTo(config.driverCpus()); // agents are pinned each to its own list as they start
        }
        ServerProcesses server = null;
        try {
            RunPreflight.writeRunFiles(workload, config, runDir);
            if (sources.hasAnswerers()) {
                // they need nothing from the server side, which may need their ports ({phone.port})
                sources.startAnswerers(runDir, RunPreflight.answererBound(config.load(), launch));
                startedSources(sources, manifest);
            }
            URI target;
            if (launch != null) {
                server = ServerProcesses.start(launch, runDir, READY_TIMEOUT, sources.answererPorts(),
                        p -> announce(p, runDir));
                manifest.started(server);
                manifest.effectiveJvm = readEffectiveJvm(runDir, server.sut().name());
                target = URI.create(server.targetUrl(workload.servicePath()));
                server.onUnexpectedExit((name, code) -> {
                    processExit = ManagedProcess.label(name) + " exited unexpectedly (exit status " + code + ")";
                    Drive d = driver;
                    if (d != null) {
                        d.stop(processExit);
                    }
                });
            } else {
                target = givenTarget;
                RunPreflight.checkReachable(target);
            }
            manifest.target = target.toString();
            manifest.write();
            if (sources.hasLoaders()) {
                sources.startLoaders(runDir, server == null ? Map.of() : server.ports(), RunPreflight.longestDrive(config.load()));
                startedSources(sources, manifest);
            }
            return drive(config, workload, target, runDir, server, sources, manifest);
        } finally {
            manifest.stopped(sources.stop(SOURCES_STOP_GRACE));
            if (server != null) {
                manifest.stopped(server.stop(STOP_GRACE));
            }
            DriverJvm.stopGcLog(driverGcLog);
            manifest.endedAt = Instant.now().toString();
            manifest.write();
        }
    }





    /** The console's line for a process of the server side, a SUT process's with what its JVM really runs. */
    private void announce(ManagedProcess p, Path runDir) {
        startLines.process(p, SutInstances.reserved(p.name()) ? readEffectiveJvm(runDir, p.name()) : null);
    }

    /** Records the load sources started so far in run.json and says where each listens. */
    private void startedSources(LoadSources sources, RunManifest manifest) throws IOException {
        Set<String> known = manifest.processes == null ? Set.of() : Set.copyOf(manifest.processes.keySet());
        manifest.startedSources(sources);
        manifest.write();
        startLines.loadSources(sources, known);
    }

    /** What one run's steps share once its server side is up: the run as configured and what was started for it. */
    record Run(RunConfig config, Workload workload, URI target, Path runDir, ServerProcesses server,
                       LoadSources sources, RunManifest manifest) {
    }

    /** What the drive gave: the driver's result, when it started, and the agents it ran on (null: none). */
    record Driven(DriverResult result, long startEpochMs, AgentsDrive agents) {
    }

    /**
     * The drive and what follows it, in order: the recorder and the faults set up, the driver run through warm-up
     * and window, then the summary made and every result file written.
     */
    private RunOutcome drive(RunConfig config, Workload workload, URI target, Path runDir, ServerProcesses server,
                             LoadSources sources, RunManifest manifest) throws IOException, RunFailure {
        Run run = new Run(config, workload, target, runDir, server, sources, manifest);
        RunRecorder recorder = recorder(run);
        // a server from a server file is not perflab's stack: it serves no counters of perflab's
        ServerCounterSampler serverSampler = workload.serverCounters() == null || config.sut().server() != null ? null
                : new ServerCounterSampler(workload.serverCounters(), instanceUris(target, server), runDir);
        recorder.sampleServerWith(serverSampler);
        InstanceKill kill = instanceKill(run, recorder, serverSampler);
        ProxyRestart proxyRestart = proxyRestart(run, recorder);
        PrometheusEndpoint metrics = metricsEndpoint(run, recorder);
        Driven driven;
        try (recorder; serverSampler; kill; proxyRestart; metrics) {
            driven = runDriver(run, recorder, kill, proxyRestart);
            recorder.sample();
            if (serverSampler != null) {
                try {
                    serverSampler.awaitAnswer(ServerCounterSampler.TIMEOUT);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
        RunResults results = new RunResults(console, processExit, interrupted,
                process -> sutFile(runDir, process, ServerPlan::gcLog));
        RunSummary summary = results.summarize(run, driven, recorder, serverSampler == null ? null : serverSampler.window());
        summary = results.withFaults(run, summary, driven.result(), recorder, kill, proxyRestart);
        summary = results.withWorkloadFigures(workload, summary);
        if (driven.agents() != null) {
            summary = summary.withAgents(RunSummarizer.agents(driven.agents().agents()));
        }
        return results.finish(run, driven.result(), summary);
    }

    /**
     * {@code --metrics-export}: the run's seconds served for a Prometheus server while it drives; null when not asked
     * for, or when its port cannot be had (a warning: the run goes on without it).
     */
    private PrometheusEndpoint metricsEndpoint(Run run, RunRecorder recorder) {
        RunConfig config = run.config();
        if (config.recording() == null || config.recording().metricsExport() == null) {
            return null;
        }
        MetricsExport export = MetricsExport.parse(config.recording().metricsExport());
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("workload", config.workload());
        labels.put("stack", config.stack());
        labels.put("operation", config.operation());
        labels.put("label", config.recording().label());
        String experiment = config.recording().experiment();
        if (experiment != null) {
            // an experiment's runs are <configuration>/rep-<r>: the run's name alone would not tell them apart
            labels.put("experiment", Path.of(experiment).getFileName().toString());
            labels.put("run", run.runDir().getParent().getFileName() + "/" + run.runDir().getFileName());
        } else {
            labels.put("run", run.runDir().getFileName().toString());
        }
        try {
            PrometheusEndpoint endpoint = PrometheusEndpoint.start(export, labels);
            recorder.onSecond(endpoint);
            if (console != null) {
                console.printf("perflab: live metrics for Prometheus at http://%s:%d%s%n",
                        export.host().contains(":") ? "[" + export.host() + "]" : export.host(), endpoint.port(),
                        PrometheusEndpoint.PATH);
            }
            return endpoint;
        } catch (IOException | RuntimeException e) {
            System.err.println("perflab: --metrics-export: cannot serve on " + export.host() + ":" + export.port() + " ("
                    + e.getMessage() + "); the run goes on without it");
            return null;
        }
    }

    /** Samples every process of the run once a second from the drive's start, and the run's live line. */
    private RunRecorder recorder(Run run) throws IOException {
        RunConfig.Load load = run.config().load();
        double measureSeconds = load.duration() == null ? Double.NaN : load.duration().toMillis() / 1000.0;
        // the live line's "n/total": an automatic warm-up has no set length
        double warmupSeconds = load.warmupRequests() > 0 || load.warmupAuto() ? Double.NaN : load.warmup().toMillis() / 1000.0;
        ServerProcesses server = run.server();
        List<ManagedProcess> instances = server == null ? List.of() : server.instances();
        List<Path> gcLogs = instances.stream().map(p -> sutFile(run.runDir(), p.name(), ServerPlan::gcLog))
                .filter(java.util.Objects::nonNull).toList();
        Map<String, Long> pids = new LinkedHashMap<>(server == null ? Map.of() : server.pids());
        pids.putAll(run.sources().pids());
        return new RunRecorder(run.runDir(), pids, server == null ? Set.of() : server.trees(),
                server == null ? Map.of() : server.groups(), NetworkCounters.interfaceFor(run.target().getHost()), gcLogs,
                console, warmupSeconds, measureSeconds, System.currentTimeMillis());
    }

    /** {@code --kill-instance-at}: the first instance killed mid-window (and started again); null without. */
    private InstanceKill instanceKill(Run run, RunRecorder recorder, ServerCounterSampler serverSampler) {
        RunConfig.Sut sut = run.config().sut();
        ServerProcesses server = run.server();
        if (sut.killInstanceAt() == null || server == null || !server.clustered()) {
            return null;
        }
        return new InstanceKill(server, server.instanceNames().get(0), sut.killInstanceAt(), sut.restartInstanceAt(),
                READY_TIMEOUT, new InstanceKill.Return() {
                    @Override
                    public void starting(String instance) {
                        if (serverSampler != null) {
                            serverSampler.retireSource(instance);
                        }
                    }

                    @Override
                    public void ready(ManagedProcess p, long startedEpochMs) {
                        recorder.watch(p.name(), p.pid(), RunMonitor.SUT, false);
                        if (serverSampler != null) {
                            serverSampler.addSource(p.name(), instanceUri(run.target(), p), startedEpochMs);
                        }
                        announce(p, run.runDir());
                    }
                }, console);
    }

    /** {@code --restart-proxy-at}: the proxies in front of the instances restarted mid-window; null without. */
    private ProxyRestart proxyRestart(Run run, RunRecorder recorder) {
        ServerProcesses server = run.server();
        if (run.config().sut().restartProxyAt() == null) {
            return null;
        }
        if (server == null || server.proxies().isEmpty()) {
            if (console != null) {
                console.println("perflab: warning: --restart-proxy-at: " + run.workload().name() + " puts no proxy in "
                        + "front of its instances; nothing is restarted");
            }
            return null;
        }
        return new ProxyRestart(server, run.config().sut().restartProxyAt(), READY_TIMEOUT, (p, proxy) -> {
            recorder.watch(p.name(), p.pid(), null, server.sampledAsTree(proxy));
            announce(p, run.runDir());
        }, console);
    }

    /**
     * Runs the driver (here, or on agents) through warm-up and window, with what starts at the window's start (the
     * profiles, the faults); a Ctrl-C meanwhile stops it.
     */
    private Driven runDriver(Run run, RunRecorder recorder, InstanceKill kill, ProxyRestart proxyRestart)
            throws IOException, RunFailure {
        RunConfig config = run.config();
        RunConfig.Load load = config.load();
        LoadSpec spec = new LoadSpec(run.target(), load.clients(), load.rate(),
                "poisson".equals(load.schedule()) ? LoadSpec.Schedule.POISSON : LoadSpec.Schedule.CONSTANT,
                load.duration(), load.requests(), load.warmup(), load.warmupRequests(), load.thinkTime(),
                ConnectionPolicy.parse(load.keepalive()), load.timeout(), load.deepCheck(), load.seed(), 0, 0,
                LoadSpec.HttpVersion.parse(load.http()), load.streamsPerConnection());
        AgentsDrive agents = config.agents() == null ? null : new AgentsDrive(spec, run.workload().name(),
                config.operation(), RunPreflight.trafficSettings(config, run.workload()),
                AgentsSpec.of(config.agents()).deployer(config.driverCpus(), run.runDir()),
                AgentsSpec.of(config.agents()).controllerPort(), console);
        Drive d = agents != null ? agents
                : new LoadDriver(spec, RunPreflight.buildTraffic(config, run.workload(), run.target()));
        driver = d;
        if (interrupted) {
            d.stop();
        }
        if (load.warmupAuto()) {
            recorder.endWarmupWhenWarm(load.rate() > 0, d::endWarmup);
        }
        ServerProcesses server = run.server();
        WindowProfiles profiles = config.profile() == null || server == null ? null
                : new WindowProfiles(config.profile(), server.jvmPids(), run.runDir(), console);
        if (profiles != null) {
            recorder.onMeasureStart(windowStart -> profiles.start());
        }
        if (kill != null) {
            recorder.onMeasureStart(kill::arm);
            recorder.keepMeasuredSeconds();
        }
        if (proxyRestart != null) {
            recorder.onMeasureStart(proxyRestart::arm);
            recorder.keepMeasuredSeconds();
        }
        long driveStartMs = System.currentTimeMillis();
        try {
            DriverResult result = d.run(recorder);
            if (profiles != null) {
                run.manifest().profiles = profiles.stop();
            }
            if (agents != null && agents.startedEpochMs() > 0) {
                driveStartMs = agents.startedEpochMs(); // the agents' start, not their deployment's
            }
            return new Driven(result, driveStartMs, agents);
        } catch (AgentsFailure e) {
            throw new RunFailure(e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            d.stop();
            throw new IOException("interrupted while driving");
        } finally {
            driver = null;
        }
    }

    /** The service URI of one of the SUT's processes: the target's path on its own port. */
    private static URI instanceUri(URI target, ManagedProcess p) {
        return URI.create("http://127.0.0.1:" + p.port() + target.getRawPath());
    }

    /**
     * The service URI of each of the SUT's processes (the target's path on the instance's own port): the one
     * target when the SUT is one process or not perflab's.
     */
    static List<URI> instanceUris(URI target, ServerProcesses server) {
        if (server == null || !server.clustered()) {
            return List.of(target);
        }
        return server.liveInstances().stream().map(p -> instanceUri(target, p))
                .toList();
    }



    /**
     * One of SUT process {@code process}'s own files, as the kind of server that laid it out names it
     * ({@code which}: its GC log, its JVM report); null when it has none or perflab did not start it.
     */
    private Path sutFile(Path runDir, String process, java.util.function.Function<ServerPlan, String> which) {
        ServerLaunch l = launch;
        ServerPlan plan = l == null ? null : l.sutPlan(process);
        String file = plan == null ? null : which.apply(plan);
        return file == null ? null : runDir.resolve(file);
    }

    private EffectiveJvm readEffectiveJvm(Path runDir, String sut) {
        Path file = sutFile(runDir, sut, ServerPlan::jvmReport);
        try {
            return file != null && Files.exists(file) ? Json.read(file, EffectiveJvm.class) : null;
        } catch (IOException e) {
            return null;
        }
    }


}
