package perflab.experiment.run;

import perflab.core.server.ServerFile;
import perflab.core.server.ServerPlan;
import perflab.core.workload.Companion;
import perflab.core.workload.SutInstances;
import perflab.monitor.RunMonitor;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * The started processes of a run's server side ({@link ServerLaunch}): started in order, each waited for until
 * it is ready before the next starts (a later one may need an earlier one's port), and stopped in the reverse
 * order, so that the SUT finishes its in-flight calls before its back end goes.
 */
public final class ServerProcesses implements AutoCloseable {
    /** A started process with the step it came from and its command as run (ports filled in). */
    private record Started(ManagedProcess process, ServerLaunch.Step step, List<String> command) {
    }

    /** In start order; an instance started again mid-run (from a timer's thread) is added at the end. */
    private final List<Started> started = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final List<String> instances;
    private final String entry;
    private final Map<String, ServerLaunch.Step> restarts;
    private final List<String> proxies;
    private final Path runDir;
    /** Every port filled in so far, by process and name: what a restarted instance's command is resolved with. */
    private final Map<String, Map<String, Integer>> ports = new java.util.concurrent.ConcurrentHashMap<>();
    private volatile BiConsumer<String, Integer> exitHandler;

    private ServerProcesses(ServerLaunch launch, Path runDir) {
        this.instances = launch.instances();
        this.entry = launch.entry();
        this.restarts = launch.restarts();
        this.proxies = launch.proxies();
        this.runDir = runDir;
    }

    /**
     * Starts every step; if one fails, those already started are stopped and the failure goes on.
     *
     * @param startedOne told of each process once it is ready (the console's "SUT pid ... on port ...")
     */
    public static ServerProcesses start(ServerLaunch launch, Path runDir, Duration readyTimeout,
                                        java.util.function.Consumer<ManagedProcess> startedOne) throws RunFailure {
        return start(launch, runDir, readyTimeout, Map.of(), startedOne);
    }

    /**
     * Starts every step, with {@code earlier}'s ports to fill in besides those of the steps (the SIPp loads that
     * answer, started before the server side: {@code {phone.port}}). A step's own name in {@code earlier} pins the
     * ports it lists there instead of choosing them (a server file's server on the port {@code perflab serve} gave).
     */
    public static ServerProcesses start(ServerLaunch launch, Path runDir, Duration readyTimeout,
                                        Map<String, Map<String, Integer>> earlier,
                                        java.util.function.Consumer<ManagedProcess> startedOne) throws RunFailure {
        ServerProcesses processes = new ServerProcesses(launch, runDir);
        Map<String, Map<String, Integer>> ports = processes.ports;
        ports.putAll(earlier);
        try {
            // the ports perflab chooses, all before anything starts: a process may name one of a later process
            Map<String, Map<String, Integer>> chosenPorts = new LinkedHashMap<>();
            for (ServerLaunch.Step step : launch.steps()) {
                Map<String, Integer> chosen = choosePorts(step, chosenPorts, earlier.getOrDefault(step.name(), Map.of()));
                if (!chosen.isEmpty()) {
                    chosenPorts.put(step.name(), chosen);
                    ports.put(step.name(), chosen);
                }
            }
            for (ServerLaunch.Step step : launch.steps()) {
                Map<String, Integer> chosen = chosenPorts.getOrDefault(step.name(), Map.of());
                List<String> command = ServerLaunch.resolve(step.command(), ports);
                ServerPlan.Program program = step.sut() == null ? null : step.sut().program();
                // a program companion runs in the run directory; the SUT and JVM companions where perflab runs
                ManagedProcess p = program != null
                        ? ManagedProcess.startProgram(step.name(), command, runDir, resolve(program, ports), chosen)
                        : ManagedProcess.start(step.name(), command, runDir, readyTimeout, step.readyPrefix(),
                        chosen, step.jvm() ? null : runDir);
                processes.started.add(new Started(p, step, command));
                ports.put(step.name(), p.ports());
                if (program != null && step.jvm()) {
                    reportAttachedJvm(p, runDir.resolve(step.sut().jvmReport()));
                }
                startedOne.accept(p);
            }
        } catch (RunFailure | RuntimeException e) {
            processes.stop(Duration.ofSeconds(10));
            throw e;
        }
        return processes;
    }

    /**
     * Writes what the JVM in a program's tree runs with into {@code file} (run.json's effectiveJvm), as perflab's own
     * stacks write it themselves; nothing when there is no JVM to ask (the report then leaves it out).
     */
    private static void reportAttachedJvm(ManagedProcess p, Path file) {
        jvmInTree(p.pid()).map(AttachedJvm::describe).ifPresent(jvm -> {
            try {
                perflab.core.result.Json.write(file, jvm);
            } catch (java.io.IOException e) {
                // a run goes on without it, as without a stack's report
            }
        });
    }

    /** A program's words with the ports perflab chose filled in: environment, files, URL, readiness, stop command. */
    static ServerPlan.Program resolve(ServerPlan.Program p, Map<String, Map<String, Integer>> ports) {
        Map<String, String> env = new LinkedHashMap<>();
        p.env().forEach((k, v) -> env.put(k, ServerLaunch.resolve(v, ports)));
        Map<Path, String> files = new LinkedHashMap<>();
        p.files().forEach((k, v) -> files.put(k, ServerLaunch.resolve(v, ports)));
        ServerFile.Ready r = p.ready();
        ServerFile.Ready ready = r.kind() == ServerFile.Ready.Kind.HTTP ? new ServerFile.Ready(r.kind(),
                ServerLaunch.resolve(r.target(), ports), r.minStatus(), r.maxStatus(), r.timeout()) : r;
        ServerFile.Stop s = p.stop();
        ServerFile.Stop stop = new ServerFile.Stop(s.signal(), ServerLaunch.resolve(s.command(), ports), s.grace());
        return new ServerPlan.Program(env, p.workDir(), files, p.ports(), p.url() == null ? null
                : ServerLaunch.resolve(p.url(), ports), ready, stop, p.source(), p.home());
    }

    /**
     * Free loopback ports for the ports a program listens on, by name ({@link ServerLaunch.Step#listens}), but those
     * {@code pinned} names (perflab serve --port), which must be free now.
     */
    private static Map<String, Integer> choosePorts(ServerLaunch.Step step, Map<String, Map<String, Integer>> taken,
                                                    Map<String, Integer> pinned) throws RunFailure {
        Map<String, Integer> chosen = new LinkedHashMap<>();
        try {
            for (String name : step.listens()) {
                Integer port = pinned.get(name);
                if (port != null) {
                    if (!perflab.core.process.LocalSockets.tcpFree(port)) {
                        throw new RunFailure("port " + port + " on the loopback is in use: give " + ManagedProcess.label(step.name())
                                + " another (--port 0 lets perflab choose one)");
                    }
                } else {
                    do {
                        port = perflab.core.process.LocalSockets.freePort();
                    } while (chosen.containsValue(port) || pinned.containsValue(port) || takenBy(taken, port));
                }
                chosen.put(name, port);
            }
        } catch (java.io.IOException e) {
            throw new RunFailure("cannot choose ports for " + ManagedProcess.label(step.name()) + ": " + e.getMessage());
        }
        return chosen;
    }

    private static boolean takenBy(Map<String, Map<String, Integer>> taken, int port) {
        return taken.values().stream().anyMatch(ports -> ports.containsValue(port));
    }

    /** The SUT: the one process, or the first of its instances. */
    public ManagedProcess sut() {
        return process(instances.get(0));
    }

    /** The names of the SUT's processes as laid out ({@code sut}, or {@code sut-0} ..), started or not. */
    public List<String> instanceNames() {
        return instances;
    }

    /** Kills one of the SUT's instances with SIGKILL, as a crash would (a fail-over run), without waiting. */
    public void kill(String instance) {
        if (!instances.contains(instance)) {
            throw new IllegalArgumentException(instance + " is not one of the SUT's instances " + instances);
        }
        process(instance).killNow();
    }

    /**
     * Starts a killed instance again ({@code --restart-instance-at}), as {@link SutInstances#restarted} of its name,
     * with the command it had and on the ports it had: the proxies in front of the instances and its partner name
     * them. Its HTTP port goes in {@code --port}; every further port its READY line announced ({@code sip=5060})
     * goes in {@code --NAME-port} (the protocol's way to ask for that port again) unless perflab chose it, in which
     * case the command names it already. Returns once it is ready.
     */
    public ManagedProcess restart(String instance, Duration readyTimeout) throws RunFailure {
        ServerLaunch.Step step = restarts.get(instance);
        if (step == null) {
            throw new IllegalArgumentException(instance + " was not laid out to be started again");
        }
        ManagedProcess before = process(instance);
        if (before.alive()) {
            throw new IllegalStateException(instance + " is still running: only a killed instance is started again");
        }
        Map<String, Integer> chosen = new LinkedHashMap<>();
        step.listens().forEach(name -> chosen.put(name, before.ports().get(name)));
        List<String> command = pinned(ServerLaunch.resolve(step.command(), ports), before.ports(), step.listens());
        ServerPlan.Program program = step.sut() == null ? null : step.sut().program();
        ManagedProcess p = program != null
                ? ManagedProcess.startProgram(step.name(), command, runDir, resolve(program, ports), chosen)
                : ManagedProcess.start(step.name(), command, runDir, readyTimeout, step.readyPrefix(), chosen, null);
        started.add(new Started(p, step, command));
        ports.put(step.name(), p.ports());
        BiConsumer<String, Integer> handler = exitHandler;
        if (handler != null) {
            p.onUnexpectedExit(code -> handler.accept(p.name(), code));
        }
        return p;
    }

    /** The proxies in front of the instances ({@link ServerLaunch#proxies}); empty when the SUT is one process. */
    public List<String> proxies() {
        return clustered() ? proxies : List.of();
    }

    /**
     * Restarts the proxies in front of the instances ({@code --restart-proxy-at}), as an operator would: each is
     * stopped (SIGTERM: {@link ManagedProcess#terminate}), then each started again with the command it had, on the ports perflab chose
     * for it (the instances and the driver name them), as {@link SutInstances#restarted} of its name. Returns the new
     * processes once all are ready.
     */
    public List<ManagedProcess> restartProxies(Duration readyTimeout) throws RunFailure {
        List<Started> old = started.stream().filter(s -> proxies().contains(s.process().name())).toList();
        if (old.isEmpty()) {
            throw new IllegalStateException("no proxy in front of the SUT's instances to restart");
        }
        for (Started s : old) {
            s.process().terminate(Duration.ofSeconds(5));
        }
        List<ManagedProcess> again = new ArrayList<>();
        for (Started s : old) {
            ServerLaunch.Step step = s.step();
            Map<String, Integer> chosen = new LinkedHashMap<>();
            step.listens().forEach(name -> chosen.put(name, s.process().ports().get(name)));
            ManagedProcess p = ManagedProcess.start(SutInstances.restarted(step.name()), s.command(), runDir,
                    readyTimeout, step.readyPrefix(), chosen, step.jvm() ? null : runDir);
            started.add(new Started(p, step, s.command()));
            BiConsumer<String, Integer> handler = exitHandler;
            if (handler != null) {
                p.onUnexpectedExit(code -> handler.accept(p.name(), code));
            }
            again.add(p);
        }
        return again;
    }

    /** Whether process {@code name} is sampled with every process under it ({@link Companion.Sampling#TREE}). */
    public boolean sampledAsTree(String name) {
        return started.stream().anyMatch(s -> s.process().name().equals(name)
                && s.step().sampling() == Companion.Sampling.TREE);
    }

    /** {@code command} asking for the ports a process announced ({@code announced}) but those perflab chose. */
    static List<String> pinned(List<String> command, Map<String, Integer> announced, List<String> chosen) {
        List<String> pinned = new ArrayList<>(command);
        announced.forEach((name, port) -> {
            if (chosen.contains(name)) {
                return;
            }
            String flag = name.equals("port") ? "--port" : "--" + name + "-port";
            int at = pinned.indexOf(flag);
            if (at >= 0 && at + 1 < pinned.size()) {
                pinned.set(at + 1, Integer.toString(port));
            } else {
                pinned.addAll(List.of(flag, Integer.toString(port)));
            }
        });
        return pinned;
    }

    /** The SUT's processes still running: those a fail-over run did not kill, and any started again. */
    public List<ManagedProcess> liveInstances() {
        return instances().stream().filter(ManagedProcess::alive).toList();
    }

    /** The SUT's processes in start order: the one, or each instance, and any instance started again after them. */
    public List<ManagedProcess> instances() {
        return started.stream().map(Started::process)
                .filter(p -> instances.contains(p.name()) || restarts.values().stream().anyMatch(s -> s.name().equals(p.name())))
                .toList();
    }

    /**
     * The URL the SUT's server file says the traffic targets, its ports filled in; null when it says none (or the
     * SUT is a stack of perflab's): then the entry's port and the workload's path.
     */
    private String declaredUrl() {
        return started.stream().filter(s -> s.process().name().equals(entry)).map(s -> s.step().sut())
                .filter(java.util.Objects::nonNull).map(ServerPlan::program).filter(java.util.Objects::nonNull)
                .map(ServerPlan.Program::url).filter(java.util.Objects::nonNull)
                .map(url -> ServerLaunch.resolve(url, ports)).findFirst().orElse(null);
    }

    /** The URL the traffic targets: the server file's ({@link #declaredUrl}), or the entry's port and {@code servicePath}. */
    public String targetUrl(String servicePath) {
        String declared = declaredUrl();
        return declared != null ? declared : "http://127.0.0.1:" + entry().port() + servicePath;
    }

    /** The process the driver sends to: the SUT, or the proxy in front of its instances. */
    public ManagedProcess entry() {
        return process(entry);
    }

    /** Whether the SUT runs as several instances. */
    public boolean clustered() {
        return instances.size() > 1;
    }

    /**
     * What the monitor reports as one by name: {@code sut} for the instances of a SUT run as several, each of them
     * also reported on its own; empty for one SUT process.
     */
    public Map<String, List<String>> groups() {
        return clustered() ? Map.of(RunMonitor.SUT, instances) : Map.of();
    }

    private ManagedProcess process(String name) {
        return started.stream().map(Started::process).filter(p -> p.name().equals(name)).findFirst().orElseThrow();
    }

    /** Every process in start order. */
    public List<ManagedProcess> all() {
        return started.stream().map(Started::process).toList();
    }

    /** The command each process was started with, ports filled in (run.json). */
    public Map<String, List<String>> commands() {
        Map<String, List<String>> commands = new LinkedHashMap<>();
        started.forEach(s -> commands.put(s.process().name(), s.command()));
        return commands;
    }

    /** The ports each process announced in its READY line, by process and port name. */
    public Map<String, Map<String, Integer>> ports() {
        Map<String, Map<String, Integer>> ports = new LinkedHashMap<>();
        started.forEach(s -> ports.put(s.process().name(), s.process().ports()));
        return ports;
    }

    /** Pids by name, in start order: what the monitor samples. */
    public Map<String, Long> pids() {
        Map<String, Long> pids = new LinkedHashMap<>();
        started.forEach(s -> pids.put(s.process().name(), s.process().pid()));
        return pids;
    }

    /** The names of the processes the monitor samples with every process under them (a database and its backends). */
    public Set<String> trees() {
        Set<String> trees = new LinkedHashSet<>();
        started.stream().filter(s -> s.step().sampling() == Companion.Sampling.TREE)
                .forEach(s -> trees.add(s.process().name()));
        return trees;
    }

    /** The process playing {@code role}, or null. */
    public String playing(Companion.Role role) {
        return started.stream().filter(s -> s.step().role() == role).map(s -> s.process().name()).findFirst().orElse(null);
    }

    /** The step each process was started from, by name. */
    ServerLaunch.Step step(String name) {
        return started.stream().filter(s -> s.process().name().equals(name)).map(Started::step).findFirst().orElse(null);
    }

    /** Pids of the JVMs by name: what a profiler can attach to. */
    public Map<String, Long> jvmPids() {
        Map<String, Long> pids = new LinkedHashMap<>();
        started.stream().filter(s -> s.step().jvm()).forEach(s -> {
            if (s.process().declaredStop()) {
                // a server file's program: its JVM is somewhere in its tree (a start script forks or execs it)
                jvmInTree(s.process().pid()).ifPresent(pid -> pids.put(s.process().name(), pid));
            } else {
                pids.put(s.process().name(), s.process().pid());
            }
        });
        return pids;
    }

    /** The first process named java at or under {@code pid}, the tree walked breadth first. */
    static java.util.Optional<Long> jvmInTree(long pid) {
        java.util.Optional<ProcessHandle> root = ProcessHandle.of(pid);
        if (root.isEmpty()) {
            return java.util.Optional.empty();
        }
        java.util.ArrayDeque<ProcessHandle> queue = new java.util.ArrayDeque<>(List.of(root.get()));
        while (!queue.isEmpty()) {
            ProcessHandle h = queue.poll();
            if (h.info().command().map(c -> c.endsWith("/java")).orElse(false)) {
                return java.util.Optional.of(h.pid());
            }
            h.children().forEach(queue::add);
        }
        return java.util.Optional.empty();
    }

    /**
     * Calls {@code handler} with a process's name and exit status if it exits before perflab stops it (also for an
     * instance started again later).
     */
    public void onUnexpectedExit(BiConsumer<String, Integer> handler) {
        exitHandler = handler;
        started.forEach(s -> s.process().onUnexpectedExit(code -> handler.accept(s.process().name(), code)));
    }

    /** Stops every process, the last started first; returns each one's exit status by name (-1: would not die). */
    public Map<String, Integer> stop(Duration grace) {
        Map<String, Integer> status = new LinkedHashMap<>();
        for (int i = started.size() - 1; i >= 0; i--) {
            Started s = started.get(i);
            ManagedProcess p = s.process();
            if (p.declaredStop()) {
                status.put(p.name(), p.stopAsDeclared()); // a server file's own way, with its own grace
            } else if (s.step().jvm()) {
                status.put(p.name(), p.stop(grace)); // perflab's process protocol: it stops when its stdin closes
            } else {
                // a program (haproxy, Kamailio) does not read its stdin: asked with its own signal at once, rather than
                // after a grace spent waiting on a stdin it ignores (15 s a proxy, 165 s of every test suite)
                p.terminate(grace);
                Integer code = p.exitCode();
                status.put(p.name(), code == null ? -1 : code);
            }
        }
        return status;
    }

    @Override
    public void close() {
        stop(Duration.ofSeconds(10));
    }
}
