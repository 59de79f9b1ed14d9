package perflab.experiment;

import perflab.core.config.RunConfig;
import perflab.core.result.AtomicFiles;
import perflab.core.result.Json;
import perflab.core.result.RunCheck;
import perflab.core.result.RunSummary;
import perflab.core.result.LoadFigures;
import perflab.core.server.ServerPlan;
import perflab.core.sut.EffectiveJvm;
import perflab.core.traffic.Traffic;
import perflab.core.workload.Companion;
import perflab.core.workload.ServerSide;
import perflab.core.workload.TrafficOptions;
import perflab.core.workload.SutInstances;
import perflab.core.workload.Workload;
import perflab.core.workload.WorkloadSetting;
import perflab.driver.ConnectionPolicy;
import perflab.agents.AgentsDrive;
import perflab.agents.AgentsFailure;
import perflab.agents.AgentsSpec;
import perflab.driver.Drive;
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
import java.util.HashSet;
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
    private static final Duration SOURCES_STOP_GRACE = Duration.ofSeconds(5);

    private final Path perflabHome;
    private final Path resultsRoot;
    private final PrintStream console;
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
        try {
            return runOnce(config, workload);
        } finally {
            finished.countDown();
        }
    }

    private RunOutcome runOnce(RunConfig config, Workload workload) throws RunFailure, IOException {
        LoadSources sources = check(config, workload, perflabHome);
        this.sources = sources;
        URI givenTarget = config.target() == null ? null : serviceUri(config.target(), workload);
        Path runDir = config.out() != null ? RunDirectory.explicit(Path.of(config.out()))
                : RunDirectory.create(resultsRoot, workload.name(), config.operation(), LocalDateTime.now());
        ServerLaunch launch = config.target() == null ? ServerLaunch.plan(workload, config.stack(), config.sut(), perflabHome, runDir, jfr,
                sources.declared()) : null;
        this.launch = launch;
        RunManifest manifest = new RunManifest(runDir);
        manifest.commandLine = RepeatCommand.of(config) + (jfr && launch != null ? " --jfr" : "");
        manifest.seed = config.load().seed();
        manifest.startedAt = Instant.now().toString();
        manifest.config = config;
        manifest.environment = RunEnvironment.describe(perflabHome);
        manifest.driverJvm = EffectiveJvm.describe();
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
            writeRunFiles(workload, config, runDir);
            if (sources.hasAnswerers()) {
                // they need nothing from the server side, which may need their ports ({phone.port})
                sources.startAnswerers(runDir, answererBound(config.load(), launch));
                startedSources(sources, manifest);
            }
            URI target;
            if (launch != null) {
                server = ServerProcesses.start(launch, runDir, READY_TIMEOUT, sources.answererPorts(),
                        p -> announce(p, runDir));
                manifest.started(server);
                manifest.effectiveJvm = readEffectiveJvm(runDir, server.sut().name());
                target = URI.create("http://127.0.0.1:" + server.entry().port() + workload.servicePath());
                server.onUnexpectedExit((name, code) -> {
                    processExit = ManagedProcess.label(name) + " exited unexpectedly (exit status " + code + ")";
                    Drive d = driver;
                    if (d != null) {
                        d.stop(processExit);
                    }
                });
            } else {
                target = givenTarget;
                checkReachable(target);
            }
            manifest.target = target.toString();
            manifest.write();
            if (sources.hasLoaders()) {
                sources.startLoaders(runDir, server == null ? Map.of() : server.ports(), longestDrive(config.load()));
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

    /**
     * Checks everything about a run that can be checked before anything starts, so that a bad setting costs no
     * SUT start (and an experiment's bad configuration no runs): the operation, the traffic built with its
     * settings (sizes checked), the workload's server side laid out from its settings, its load sources, and every
     * port reference between them ({@code {sut.sip}}, {@code {phone.port}}).
     */
    public static LoadSources check(RunConfig config, Workload workload, Path perflabHome) {
        workload.operation(config.operation());
        URI target = config.target() != null ? serviceUri(config.target(), workload)
                : URI.create("http://127.0.0.1:" + (config.sut().port() > 0 ? config.sut().port() : 8080) + workload.servicePath());
        Traffic traffic = buildTraffic(config, workload, target);
        if (config.load().rate() > 0) {
            // traffic that paces its users checks them against the rate (enough users) before anything starts
            traffic.agenda(config.load().rate(), "poisson".equals(config.load().schedule()));
        }
        Set<String> processes = new HashSet<>();
        ServerSide side = null;
        if (config.target() == null) {
            workload.stack(config.stack());
            side = ServerLaunch.serverSide(config.sut(), workload);
            side.companions().forEach(c -> processes.add(c.name()));
            processes.addAll(SutInstances.names(config.sut().instances()));
        }
        LoadSources loads = LoadSources.plan(workload.loadSources(trafficSettings(config, workload)), perflabHome, processes);
        if (config.agents() != null) {
            checkSplittable(config, workload, target, loads);
        }
        if (side != null) {
            ServerLaunch.checkReferences(side, config.sut().instances(), loads.declared());
        } else if (loads.hasAnswerers()) {
            // the server side perflab does not start, as the workload would lay it out by default: told nothing
            ServerLaunch.refuseLoadSourcePorts(ServerLaunch.serverSide(config.sut(), workload), loads.declared());
        }
        return loads;
    }

    /**
     * A run from agents splits the driver's clients and rate, and traffic that deals out users of its own takes each
     * agent's block of them ({@code TrafficPart}). Load sources that only answer (voicemail's phones) run beside the
     * server side as on one machine, answering every agent's users; sources that load the SUT are load of their own,
     * not split yet. Each agent needs a client.
     */
    private static void checkSplittable(RunConfig config, Workload workload, URI target, LoadSources loads) {
        AgentsSpec agents = AgentsSpec.of(config.agents());
        RunConfig.Load load = config.load();
        if (loads.hasLoaders()) {
            throw new IllegalArgumentException("--agents: " + workload.name() + " runs " + LoadSources.label(loads.firstLoader())
                    + ", load of its own beside its HTTP traffic, which agents do not split yet; drive it without --agents");
        }
        if (agents.remote() && target.getHost() != null && isLoopback(target.getHost())) {
            throw new IllegalArgumentException("--agents " + config.agents().spec() + ": agents on other hosts cannot reach "
                    + target.getHost() + "; serve the SUT on an address they reach (perflab serve --listen ADDRESS) and "
                    + "use `perflab drive --target`");
        }
        if (load.clients() < agents.count()) {
            throw new IllegalArgumentException("--agents " + config.agents().spec() + ": --clients " + load.clients()
                    + " is fewer than the agents; each agent needs a client at least");
        }
    }

    private static boolean isLoopback(String host) {
        try {
            return java.net.InetAddress.getByName(host).isLoopbackAddress();
        } catch (IOException e) {
            return false;
        }
    }

    /** The workload's files for the run's processes, before any starts; an IOException is the run's failure. */
    private static void writeRunFiles(Workload workload, RunConfig config, Path runDir) throws RunFailure {
        try {
            workload.writeRunFiles(runDir, trafficSettings(config, workload), config.load().seed());
        } catch (IOException | java.io.UncheckedIOException e) {
            throw new RunFailure(workload.name() + " could not write its run files into " + runDir + ": " + e.getMessage());
        }
    }

    /** Records the load sources started so far in run.json and says where each listens. */
    private void startedSources(LoadSources sources, RunManifest manifest) throws IOException {
        Set<String> known = manifest.processes == null ? Set.of() : Set.copyOf(manifest.processes.keySet());
        manifest.startedSources(sources);
        manifest.write();
        if (console != null) {
            Map<String, Map<String, Integer>> ports = sources.ports();
            Map<String, String> kinds = sources.kinds();
            sources.pids().forEach((name, pid) -> {
                if (!known.contains(name)) {
                    console.printf("perflab: load source %s (%s) pid %d%s%n", name, kinds.get(name), pid,
                            ports.get(name).isEmpty() ? "" : " on " + portsText(ports.get(name)));
                }
            });
        }
    }

    /**
     * How long load sources that answer can be needed (SIPp's own -timeout): they start before the server side, so its
     * longest start (each process waits for READY an hour at most) comes on top of the longest drive.
     */
    static Duration answererBound(RunConfig.Load load, ServerLaunch launch) {
        Duration serverStart = launch == null ? Duration.ZERO : ManagedProcess.LONGEST_START.multipliedBy(launch.steps().size());
        return longestDrive(load).plus(serverStart);
    }

    /**
     * The longest a drive can last, a bound a load source's tool gets as its own time limit so that it ends even if
     * perflab dies:
     * the warm-up's maximum, the measured window (an hour when the window is a request count) and a margin.
     */
    static Duration longestDrive(RunConfig.Load load) {
        Duration window = load.duration() != null ? load.duration() : Duration.ofHours(1);
        Duration warmup = load.warmupRequests() > 0 ? Duration.ofHours(1) : load.warmup();
        return window.plus(warmup).plusMinutes(2);
    }

    /** The console's line for each started process: the SUT with what its JVM really runs, a companion briefly. */
    private void announce(ManagedProcess p, Path runDir) {
        if (console == null) {
            return;
        }
        if (!SutInstances.reserved(p.name())) {
            console.printf("perflab: companion %s pid %d%s%n", p.name(), p.pid(),
                    p.ports().isEmpty() ? "" : " on " + portsText(p.ports()));
            return;
        }
        EffectiveJvm jvm = readEffectiveJvm(runDir, p.name());
        if (jvm != null) {
            console.printf("perflab: %s pid %d on port %d: %s %s, %s, heap %d MB, %d CPUs%n",
                    p.name().equals(RunMonitor.SUT) ? "SUT" : "SUT instance " + p.name(), p.pid(), p.port(),
                    jvm.vmName(), jvm.javaVersion(), jvm.collector(), jvm.heapMaxMb(), jvm.availableProcessors());
        }
    }

    /** "port 8080", or "ports http 8080, sip 5060" for a process with several. */
    private static String portsText(Map<String, Integer> ports) {
        if (ports.size() == 1 && ports.containsKey("port")) {
            return "port " + ports.get("port");
        }
        List<String> named = new java.util.ArrayList<>();
        ports.forEach((name, port) -> named.add(name + " " + port));
        return "ports " + String.join(", ", named);
    }

    /** The run's traffic; built once before anything starts (with a provisional target) to check its settings. */
    static Traffic buildTraffic(RunConfig config, Workload workload, URI target) {
        return workload.traffic(new TrafficOptions(config.operation(), target, config.load().seed(),
                trafficSettings(config, workload)));
    }

    private static Map<String, String> trafficSettings(RunConfig config, Workload workload) {
        return workload.resolveSettings(WorkloadSetting.Use.TRAFFIC, config.load().extra());
    }

    private RunOutcome drive(RunConfig config, Workload workload, URI target, Path runDir, ServerProcesses server,
                             LoadSources sources, RunManifest manifest) throws IOException, RunFailure {
        AgentsDrive agentsDrive;
        RunConfig.Load load = config.load();
        Traffic traffic = buildTraffic(config, workload, target);
        LoadSpec spec = new LoadSpec(target, load.clients(), load.rate(),
                "poisson".equals(load.schedule()) ? LoadSpec.Schedule.POISSON : LoadSpec.Schedule.CONSTANT,
                load.duration(), load.requests(), load.warmup(), load.warmupRequests(), load.thinkTime(),
                ConnectionPolicy.parse(load.keepalive()), load.timeout(), load.deepCheck(), load.seed(), 0, 0,
                LoadSpec.HttpVersion.parse(load.http()), load.streamsPerConnection());
        double measureSeconds = load.duration() == null ? Double.NaN : load.duration().toMillis() / 1000.0;
        // the live line's "n/total": an automatic warm-up has no set length
        double warmupSeconds = load.warmupRequests() > 0 || load.warmupAuto() ? Double.NaN : load.warmup().toMillis() / 1000.0;
        DriverResult result;
        long driveStartMs;
        String iface = NetworkCounters.interfaceFor(target.getHost());
        List<ManagedProcess> instances = server == null ? List.of() : server.instances();
        List<Path> gcLogs = instances.stream().map(p -> sutFile(runDir, p.name(), ServerPlan::gcLog))
                .filter(java.util.Objects::nonNull).toList();
        Map<String, Long> pids = new LinkedHashMap<>(server == null ? Map.of() : server.pids());
        pids.putAll(sources.pids());
        RunRecorder recorder = new RunRecorder(runDir, pids, server == null ? Set.of() : server.trees(),
                server == null ? Map.of() : server.groups(), iface, gcLogs, console, warmupSeconds, measureSeconds,
                System.currentTimeMillis());
        ServerCounterSampler serverSampler = workload.serverCounters() == null ? null
                : new ServerCounterSampler(workload.serverCounters(), instanceUris(target, server), runDir);
        recorder.sampleServerWith(serverSampler);
        InstanceKill kill = config.sut().killInstanceAt() == null || server == null || !server.clustered() ? null
                : new InstanceKill(server, server.instanceNames().get(0), config.sut().killInstanceAt(),
                        config.sut().restartInstanceAt(), READY_TIMEOUT, new InstanceKill.Return() {
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
                                    serverSampler.addSource(p.name(), instanceUri(target, p), startedEpochMs);
                                }
                                announce(p, runDir);
                            }
                        }, console);
        if (config.sut().restartProxyAt() != null && (server == null || server.proxies().isEmpty()) && console != null) {
            console.println("perflab: warning: --restart-proxy-at: " + workload.name() + " puts no proxy in front of "
                    + "its instances; nothing is restarted");
        }
        ProxyRestart proxyRestart = config.sut().restartProxyAt() == null || server == null
                || server.proxies().isEmpty() ? null
                : new ProxyRestart(server, config.sut().restartProxyAt(), READY_TIMEOUT, (p, proxy) -> {
                    recorder.watch(p.name(), p.pid(), null, server.sampledAsTree(proxy));
                    announce(p, runDir);
                }, console);
        try (recorder; serverSampler; kill; proxyRestart) {
            AgentsDrive agents = config.agents() == null ? null : new AgentsDrive(spec, workload.name(), config.operation(),
                    trafficSettings(config, workload), AgentsSpec.of(config.agents()).deployer(config.driverCpus(), runDir),
                    AgentsSpec.of(config.agents()).controllerPort(), console);
            agentsDrive = agents;
            Drive d = agents != null ? agents : new LoadDriver(spec, traffic);
            driver = d;
            if (interrupted) {
                d.stop();
            }
            if (load.warmupAuto()) {
                recorder.endWarmupWhenWarm(load.rate() > 0, d::endWarmup);
            }
            WindowProfiles profiles = config.profile() == null || server == null ? null
                    : new WindowProfiles(config.profile(), server.jvmPids(), runDir, console);
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
            driveStartMs = System.currentTimeMillis();
            try {
                result = d.run(recorder);
                if (profiles != null) {
                    manifest.profiles = profiles.stop();
                }
                if (agents != null && agents.startedEpochMs() > 0) {
                    driveStartMs = agents.startedEpochMs(); // the agents' start, not their deployment's
                }
            } catch (AgentsFailure e) {
                throw new RunFailure(e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                d.stop();
                throw new IOException("interrupted while driving");
            } finally {
                driver = null;
            }
            recorder.sample();
            if (serverSampler != null) {
                try {
                    serverSampler.awaitAnswer(ServerCounterSampler.TIMEOUT);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
        perflab.core.result.ServerWindow serverWindow = serverSampler == null ? null : serverSampler.window();
        boolean crashed = processExit != null;
        String endReason = crashed ? processExit : interrupted ? "interrupted" : result.endReason();
        boolean complete = result.complete() && !crashed && !interrupted;
        // every SUT process's log, an instance started again mid-run's too
        GcAnalysis gc = analyzeGc(server == null ? List.of() : server.instances(), runDir, result);
        RunSummary.Warmup warmup = RunSummarizer.warmup(load, result, driveStartMs, recorder.warmedUp(),
                recorder.notWarmBecause());
        manifest.warmupEndedBy = warmup.endedBy();
        manifest.warmupSeconds = warmup.seconds();
        if (console != null) {
            console.println((warmup.ranOut() ? "perflab: warning: " : "perflab: ") + "the warm-up "
                    + perflab.report.ConsoleSummary.warmup(warmup));
        }
        Map<String, RunSummarizer.ProcessEnd> ends = new LinkedHashMap<>();
        if (server != null) {
            server.all().forEach(p -> ends.put(p.name(), new RunSummarizer.ProcessEnd(p.pid(), p.exitCode())));
        }
        // the load sources get their stop now, so that their last statistics are written before they are read
        Map<String, Integer> loadExits = sources.exitCodes();
        sources.pids().forEach((name, pid) -> ends.put(name, new RunSummarizer.ProcessEnd(pid, loadExits.get(name))));
        if (console != null) {
            sources.endedEarly().forEach(why -> console.println("perflab: warning: " + why));
        }
        sources.stop(SOURCES_STOP_GRACE);
        // a killed instance has nothing to say: the others' accounts, its users' calls among them
        Map<String, RunCheck> checks = checksAfterDrive(workload, target, instanceUris(target, server),
                server != null && server.clustered());
        Instant from = Instant.ofEpochMilli(result.measureStartEpochMs());
        Instant to = Instant.ofEpochMilli(result.measureEndEpochMs());
        Map<String, LoadFigures> loads = sources.figures(from, to);
        if (!sources.isEmpty()) {
            sources.writeSeconds(runDir.resolve(LoadSources.SECONDS_CSV), driveStartMs, result.measureStartEpochMs(),
                    result.measureEndEpochMs());
        }
        RunSummary summary = RunSummarizer.summarize(config, workload.name(), stack(config),
                new RunSummarizer.Measured(result, recorder.window(result.measureStartEpochMs(), result.measureEndEpochMs()),
                        recorder.machineCpus(), recorder.measuredThroughputPerSecond(), ends, gc, warmup, loads, checks,
                        server == null ? null : server.playing(Companion.Role.DATABASE), serverWindow),
                complete, endReason);
        RunSummary.Failover failover = kill == null ? null : kill.failover(result.measureStartEpochMs());
        if (failover != null) {
            failover = FailoverPhases.cut(failover, result.measureStartEpochMs(), result.measureEndEpochMs(),
                    recorder.measuredSeconds(), runDir.resolve("latency.hlog"), sources.periods());
            summary = summary.withFailover(failover);
            if (console != null) {
                console.println("perflab: " + perflab.report.ConsoleSummary.failover(failover, sources.troubleColumns()));
            }
        }
        RunSummary.ProxyRestart proxiesAgain = proxyRestart == null ? null : proxyRestart.restarted();
        if (proxiesAgain != null) {
            proxiesAgain = FailoverPhases.cut(proxiesAgain, result.measureStartEpochMs(), result.measureEndEpochMs(),
                    recorder.measuredSeconds(), runDir.resolve("latency.hlog"), sources.periods());
            summary = summary.withProxyRestart(proxiesAgain);
            if (console != null) {
                console.println("perflab: " + perflab.report.ConsoleSummary.proxyRestart(proxiesAgain, sources.troubleColumns()));
            }
        }
        summary = withWorkloadFigures(workload, summary);
        if (agentsDrive != null) {
            summary = summary.withAgents(RunSummarizer.agents(agentsDrive.agents()));
        }
        Json.write(runDir.resolve("summary.json"), summary);
        if (!result.errorSamples().isEmpty()) {
            AtomicFiles.write(runDir.resolve("errors.txt"), String.join(System.lineSeparator(), result.errorSamples()) + System.lineSeparator());
        }
        if (console != null) {
            console.print(perflab.report.ConsoleSummary.render(summary, workload.reportsPerClient()));
            console.println("perflab: results in " + runDir);
        }
        perflab.report.RunReport.writeQuietly(runDir, console); // report.html; never fails the run
        int status = complete ? RunOutcome.OK : interrupted && !crashed ? RunOutcome.INTERRUPTED : RunOutcome.FAILED;
        if (summary.checkFailed() && status == RunOutcome.OK) {
            status = RunOutcome.FAILED;
        }
        return new RunOutcome(runDir, summary, status);
    }

    /** The summary with the workload's own figures; a workload whose figures fail gets none and a warning. */
    private RunSummary withWorkloadFigures(Workload workload, RunSummary summary) {
        try {
            Map<String, Object> figures = workload.figures(summary);
            return figures == null || figures.isEmpty() ? summary : summary.withFigures(figures);
        } catch (RuntimeException e) {
            if (console != null) {
                console.println("perflab: warning: no workload figures in summary.json: " + e);
            }
            return summary;
        }
    }

    /**
     * The workload's checks of the server after the drive, while it still runs; never throws (a check that cannot
     * be asked is unavailable). Each gets a console line; a failed one a warning that the run fails.
     */
    private Map<String, RunCheck> checksAfterDrive(Workload workload, URI target, List<URI> instances, boolean clustered) {
        if (processExit != null) {
            return Map.of(); // nothing to ask
        }
        List<RunCheck> asked;
        try {
            asked = clustered ? workload.checksAfterDrive(target, instances) : workload.checksAfterDrive(target);
        } catch (RuntimeException e) {
            asked = List.of(RunCheck.unavailable("checks", "the checks after the drive could not run: " + e.getMessage()));
        }
        Map<String, RunCheck> checks = new LinkedHashMap<>();
        for (RunCheck c : asked) {
            checks.put(c.name(), c);
            if (console != null) {
                console.println("perflab: " + (c.failed() ? "error: " : "") + c.name() + " " + c.status() + ": " + c.line()
                        + (c.failed() ? "; the run fails" : ""));
            }
        }
        return checks;
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
     * The SUT's GC in the measured window, its instances' combined ({@link GcAnalysis#combine}); null when perflab
     * did not start the SUT or no instance's log could be read (each such log gets a one-line warning).
     */
    private GcAnalysis analyzeGc(List<ManagedProcess> instances, Path runDir, DriverResult r) {
        List<GcAnalysis> each = new java.util.ArrayList<>();
        for (ManagedProcess p : instances) {
            Path log = sutFile(runDir, p.name(), ServerPlan::gcLog);
            GcAnalysis a = log == null ? null : analyzeGc(log, r, p.alive());
            if (a != null) {
                each.add(a);
            }
        }
        return each.isEmpty() ? null : GcAnalysis.combine(each).withRequests(r.successes());
    }

    /**
     * One SUT process's GC in the measured window. Never fails the run: a missing or unreadable log gives null and
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
}
