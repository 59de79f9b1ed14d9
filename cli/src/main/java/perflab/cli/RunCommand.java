package perflab.cli;

import perflab.agents.AgentsSpec;
import perflab.core.config.RandomInstant;
import perflab.core.config.RunConfig;
import perflab.core.workload.Workload;
import perflab.core.workload.WorkloadSetting;
import perflab.core.workload.Workloads;
import perflab.experiment.run.SutProfiler;
import perflab.experiment.run.RunDirectory;
import perflab.experiment.run.RunOrchestrator;
import perflab.experiment.run.RunPreflight;
import perflab.experiment.study.SweepRunner;
import perflab.experiment.run.RunOutcome;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

@Command(name = "run", mixinStandardHelpOptions = true,
        description = {"Start the workload's server (SUT) in its own JVM, warm up, measure, stop it, and write the results.",
                "Example (perflab list names the workloads): perflab run WORKLOAD --clients 32 --duration 60s --heap 1g --gc g1"})
final class RunCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "WORKLOAD", description = "Workload to run (see `perflab list`).")
    String workload;

    @Mixin
    LoadOptions load;

    @Mixin
    SutOptions sut;

    @picocli.CommandLine.Option(names = "--instances", paramLabel = "N", description = "Run the SUT as N JVMs on this "
            + "machine, each on its own ports with the same settings, behind the proxy the workload starts in front of "
            + "them (default 1: one JVM, no proxy). The figures of the SUT are their sum; each one's are in "
            + "summary.json's processes (sut-0, sut-1, ...). Only a workload that can spread its users takes more than 1.")
    Integer instances;

    @picocli.CommandLine.Option(names = "--kill-instance-at", paramLabel = "TIME|random", description = "A fail-over "
            + "run: kill the first SUT instance (sut-0) with SIGKILL this long into the measured window (e.g. 20s), as a "
            + "crash would; the run goes on, its partner taking its users over. 'random': at an instant drawn from "
            + "--seed, uniform between 20 %% and 80 %% of --duration (printed; run.json's command has it; under perflab "
            + "tune each repetition draws its own). Needs --instances 2 or more.")
    String killInstanceAt;

    @picocli.CommandLine.Option(names = "--restart-instance-at", paramLabel = "TIME", description = "With "
            + "--kill-instance-at: start the killed instance again this long into the measured window (e.g. 40s), on "
            + "the ports it had: it rejoins its partner, receives the copies it holds, and the proxies send its users "
            + "back to it (its calls then in progress are handed back from their copies).")
    String restartInstanceAt;

    @picocli.CommandLine.Option(names = "--restart-proxy-at", paramLabel = "TIME", description = "With --instances 2 or "
            + "more: stop the proxies the workload starts in front of the instances with SIGTERM this long into the "
            + "measured window (e.g. 20s) and start them again at once on their ports, as an operator's restart would; "
            + "the load goes on.")
    String restartProxyAt;

    @picocli.CommandLine.Option(names = "--target", paramLabel = "URL", description = "Start no server: drive the one "
            + "already running at this URL (http://host:port, the workload's service path added, or a full URL), as "
            + "perflab drive does; for a scenario file, whose traffic has no server of its own.")
    String target;

    /** The workload's own flags, added to this command from the workloads' declarations. */
    private final WorkloadOptions workloadOptions = WorkloadOptions.all();

    @Override
    public Integer call() throws Exception {
        if (target != null) {
            return driveTarget();
        }
        workload = sut.serverFileInPlaceOf(workload);
        RunConfig config = toConfig();
        if (RandomInstant.WORD.equals(killInstanceAt) && !config.quiet()) {
            System.out.printf(java.util.Locale.ROOT, "perflab: --kill-instance-at random: %.3f s into the measured "
                    + "window (uniform in %.0f-%.0f %% of it, drawn from --seed %d)%n",
                    config.sut().killInstanceAt().toMillis() / 1000.0, RandomInstant.FROM * 100, RandomInstant.TO * 100,
                    config.load().seed());
        }
        return execute(config, Workloads.named(workload), sut.jfr, load.clientCounts(), load.gate(config.recording()));
    }

    /** {@code --target}: a drive, with every flag that would shape a SUT refused rather than ignored. */
    private Integer driveTarget() throws Exception {
        List<String> refused = new ArrayList<>(sut.given());
        Object[][] own = {{"--instances", instances}, {"--kill-instance-at", killInstanceAt},
                {"--restart-instance-at", restartInstanceAt}, {"--restart-proxy-at", restartProxyAt}};
        for (Object[] f : own) {
            if (f[1] != null) {
                refused.add((String) f[0]);
            }
        }
        Workload w = Workloads.named(workload);
        workloadOptions.given(w, WorkloadSetting.Use.SERVER).keySet().stream()
                .filter(name -> w.setting(name).use() == WorkloadSetting.Use.SERVER).forEach(name -> refused.add("--" + name));
        if (!refused.isEmpty()) {
            throw new IllegalArgumentException("--target drives a server already running; " + String.join(", ", refused)
                    + " shape" + (refused.size() == 1 ? "s" : "") + " a server perflab starts: leave "
                    + (refused.size() == 1 ? "it" : "them") + " out, or leave out --target");
        }
        return DriveCommand.drive(workload, target, load, workloadOptions);
    }

    /** The run these flags describe, validated (an experiment's configurations are made the same way). */
    RunConfig toConfig() {
        Workload w = Workloads.named(workload);
        load.checkPreset(w);
        RunConfig.Load runLoad = load.toLoad(workloadOptions.given(w, WorkloadSetting.Use.TRAFFIC));
        perflab.core.server.ServerFile server = serverFile(w);
        // a stack's own file takes the workload's server settings (as its settings of the same names); --server's
        // file is not the workload's stack, and its stacks' settings would never reach it
        boolean ownFile = server == null || sut.stacksServerFile();
        if (!ownFile) {
            workloadOptions.refuseServerSettings(w, server);
        }
        RunConfig config = new RunConfig(w.name(), !ownFile ? server.name()
                : sut.stack != null ? w.stack(sut.stack).name() : w.defaultStack().name(),
                operation(w, load.operation), runLoad,
                sut.withServerFile(withWorkloadSettings(sut.toSut(0, runLoad.http(), instances == null ? 1 : instances),
                                workloadOptions, w), server, w)
                        .withKillInstanceAt(killAt(runLoad))
                        .withRestartInstanceAt(inWindow("--restart-instance-at", restartInstanceAt, runLoad))
                        .withRestartProxyAt(inWindow("--restart-proxy-at", restartProxyAt, runLoad)),
                null, driverCpus(sut.cpus, load.driverCpus, spec(agents(load))), load.out, load.quiet,
                sut.profile == null ? null : SutProfiler.event(sut.profile), agents(load), load.recording());
        RunPreflight.check(config, w, Perflab.home());
        return config;
    }

    /**
     * The server file of {@code --server}, or the file given in place of the workload ({@code perflab run FILE}),
     * whose {@code workload:} then names the workload; null: the workload's own stack.
     */
    private perflab.core.server.ServerFile serverFile(Workload w) {
        try {
            return sut.serverFile(w);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("--server " + sut.server + ": " + e.getMessage());
        }
    }

    /** {@code --kill-instance-at}: a time into the window, or one drawn from the seed ({@link RandomInstant}). */
    private java.time.Duration killAt(RunConfig.Load runLoad) {
        if (killInstanceAt != null && !RandomInstant.WORD.equals(killInstanceAt)
                && !Character.isDigit(killInstanceAt.trim().isEmpty() ? 'x' : killInstanceAt.trim().charAt(0))) {
            throw new IllegalArgumentException("--kill-instance-at: '" + killInstanceAt + "' is neither a duration "
                    + "(e.g. 20s) nor 'random'");
        }
        if (!RandomInstant.WORD.equals(killInstanceAt)) {
            return inWindow("--kill-instance-at", killInstanceAt, runLoad);
        }
        if (runLoad.duration() == null) {
            throw new IllegalArgumentException("--kill-instance-at random draws an instant in the measured window: it "
                    + "needs --duration");
        }
        return RandomInstant.in(runLoad.duration(), runLoad.seed());
    }

    /** A time into the measured window given as {@code flag} (null: not given); it must lie inside the window. */
    private static java.time.Duration inWindow(String flag, String value, RunConfig.Load runLoad) {
        if (value == null) {
            return null;
        }
        java.time.Duration at = perflab.core.config.Quantities.duration(flag, value);
        if (runLoad.duration() != null && at.compareTo(runLoad.duration()) >= 0) {
            throw new IllegalArgumentException(flag + " " + value + " is not inside the measured window (--duration "
                    + runLoad.duration().toMillis() / 1000.0 + " s)");
        }
        return at;
    }

    /** perflab's server settings and the workload's own server-side ones, together as the run records them. */
    static RunConfig.Sut withWorkloadSettings(RunConfig.Sut s, WorkloadOptions options, Workload w) {
        Map<String, String> settings = new LinkedHashMap<>(s.settings());
        settings.putAll(options.given(w, WorkloadSetting.Use.SERVER));
        return s.withSettings(settings);
    }

    static String operation(Workload w, String requested) {
        return requested != null ? w.operation(requested).name() : w.operations().get(0).name();
    }

    /**
     * The driver's CPU lists, checked: one list, or with {@code --agents local:N} one per agent separated by '/';
     * none may overlap the SUT's.
     */
    static String driverCpus(String sutCpus, String driverCpus, AgentsSpec agents) {
        if (driverCpus == null) {
            return null;
        }
        List<String> lists = AgentsSpec.cpuLists(driverCpus);
        if (lists.size() > 1 && (agents == null || agents.remote() || agents.count() != lists.size())) {
            throw new IllegalArgumentException("--driver-cpus " + driverCpus + ": lists separated by '/' are one per agent "
                    + "and need --agents local:" + lists.size());
        }
        for (String list : lists) {
            var driver = CpuList.parse("--driver-cpus", list);
            if (sutCpus != null && driver.intersects(CpuList.parse("--cpus", sutCpus))) {
                throw new IllegalArgumentException("--driver-cpus " + driverCpus + " overlaps --cpus " + sutCpus + "; give disjoint CPU lists");
            }
        }
        return driverCpus;
    }

    static AgentsSpec spec(RunConfig.Agents given) {
        return given == null ? null : AgentsSpec.of(given);
    }

    /** {@code --agents} and its companions, checked; null when not given. */
    static RunConfig.Agents agents(LoadOptions load) {
        if (load.agents == null) {
            if (load.agentsKey != null || load.agentsKnownHosts != null || load.agentsController != null) {
                throw new IllegalArgumentException("--agents-key, --agents-known-hosts and --agents-controller need --agents ssh:...");
            }
            return null;
        }
        RunConfig.Agents given = new RunConfig.Agents(load.agents.trim(), load.agentsKey, load.agentsKnownHosts,
                load.agentsController);
        AgentsSpec.of(given);
        return given;
    }

    /**
     * Runs one configuration, or one per client count when several are given (the harness's client scaling:
     * a directory with a sub-directory per value and the table); Ctrl-C keeps what was measured. Shared by
     * `run` and `drive`.
     */
    static int execute(RunConfig config, Workload w, boolean jfr, List<Integer> clientCounts, Gate gate) throws Exception {
        if (clientCounts.size() > 1) {
            if (gate != null) {
                throw new IllegalArgumentException("--slo and --no-regression judge one run: give one --clients value");
            }
            return sweepClients(config, w, jfr, clientCounts);
        }
        return execute(config, w, jfr, gate);
    }

    private static int sweepClients(RunConfig config, Workload w, boolean jfr, List<Integer> counts) throws Exception {
        Path dir = config.out() != null ? RunDirectory.explicit(Path.of(config.out()))
                : RunDirectory.create(Perflab.resultsRoot(), w.name(), config.operation() + "-clients", LocalDateTime.now());
        List<SweepRunner.Point> points = new ArrayList<>();
        for (int n : counts) {
            RunConfig.Load load = config.load().withClients(n);
            points.add(new SweepRunner.Point("clients-" + n, Integer.toString(n),
                    config.withLoad(load, dir.resolve("clients-" + n).toString())));
        }
        SweepRunner sweep = new SweepRunner(Perflab.home(), config.quiet() ? null : System.out, jfr);
        Shutdown.onSignal(() -> sweep.interrupt(Duration.ofSeconds(60)));
        int status = sweep.run(w, dir, "clients", points);
        if (config.quiet()) {
            System.out.println(dir);
        }
        return status;
    }

    /** Runs one configuration with Ctrl-C handling, and judges it when a gate is asked for (null: none). */
    static int execute(RunConfig config, Workload w, boolean jfr, Gate gate) throws Exception {
        RunOrchestrator orchestrator = new RunOrchestrator(Perflab.home(), Perflab.resultsRoot(),
                config.quiet() ? null : System.out).recordJfr(jfr);
        Shutdown.onSignal(() -> orchestrator.interrupt(Duration.ofSeconds(60)));
        RunOutcome outcome = orchestrator.run(config, w);
        if (config.quiet()) {
            var s = outcome.summary();
            System.out.printf(java.util.Locale.ROOT, "%s  throughput %.2f req/s  p99 %.3f ms  errors %d%s%n",
                    outcome.directory(), s.throughput(), s.latencyMs().p99(), s.errors().get("total"),
                    s.complete() ? "" : "  INCOMPLETE: " + s.endReason());
        }
        return gate == null ? outcome.exitStatus() : gate.judge(outcome, config);
    }
}
