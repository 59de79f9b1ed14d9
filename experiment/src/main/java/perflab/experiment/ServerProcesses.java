package perflab.experiment;

import perflab.monitor.RunMonitor;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The started processes of a run's server side ({@link ServerLaunch}): started in order, each waited for until
 * it is ready before the next starts (a later one may need an earlier one's port), and stopped in the reverse
 * order, so that the SUT finishes its in-flight calls before its back end goes.
 */
public final class ServerProcesses implements AutoCloseable {
    private final List<ManagedProcess> started = new ArrayList<>();
    private final Map<String, List<String>> commands = new LinkedHashMap<>();
    private final Map<String, Boolean> jvm = new LinkedHashMap<>();

    private ServerProcesses() {
    }

    /**
     * Starts every step; if one fails, those already started are stopped and the failure goes on.
     *
     * @param startedOne told of each process once it is ready (the console's "SUT pid ... on port ...")
     */
    public static ServerProcesses start(ServerLaunch launch, Path runDir, Duration readyTimeout,
                                        java.util.function.Consumer<ManagedProcess> startedOne) throws RunFailure {
        ServerProcesses processes = new ServerProcesses();
        Map<String, Map<String, Integer>> ports = new LinkedHashMap<>();
        try {
            for (ServerLaunch.Step step : launch.steps()) {
                List<String> command = ServerLaunch.resolve(step.command(), ports);
                ManagedProcess p = ManagedProcess.start(step.name(), command, runDir, readyTimeout, step.readyPrefix());
                processes.started.add(p);
                processes.commands.put(step.name(), command);
                processes.jvm.put(step.name(), step.jvm());
                ports.put(step.name(), p.ports());
                startedOne.accept(p);
            }
        } catch (RunFailure | RuntimeException e) {
            processes.stop(Duration.ofSeconds(10));
            throw e;
        }
        return processes;
    }

    /** The SUT. */
    public ManagedProcess sut() {
        return started.stream().filter(p -> p.name().equals(RunMonitor.SUT)).findFirst().orElseThrow();
    }

    /** Every process in start order. */
    public List<ManagedProcess> all() {
        return List.copyOf(started);
    }

    /** The command each process was started with, ports filled in (run.json). */
    public Map<String, List<String>> commands() {
        return Map.copyOf(commands);
    }

    /** Pids by name, in start order: what the monitor samples. */
    public Map<String, Long> pids() {
        Map<String, Long> pids = new LinkedHashMap<>();
        started.forEach(p -> pids.put(p.name(), p.pid()));
        return pids;
    }

    /** Pids of the JVMs by name: what a profiler can attach to. */
    public Map<String, Long> jvmPids() {
        Map<String, Long> pids = new LinkedHashMap<>();
        started.stream().filter(p -> jvm.get(p.name())).forEach(p -> pids.put(p.name(), p.pid()));
        return pids;
    }

    /** Calls {@code handler} with a process's name and exit status if it exits before perflab stops it. */
    public void onUnexpectedExit(BiConsumer<String, Integer> handler) {
        started.forEach(p -> p.onUnexpectedExit(code -> handler.accept(p.name(), code)));
    }

    /** Stops every process, the last started first; returns each one's exit status by name (-1: would not die). */
    public Map<String, Integer> stop(Duration grace) {
        Map<String, Integer> status = new LinkedHashMap<>();
        for (int i = started.size() - 1; i >= 0; i--) {
            ManagedProcess p = started.get(i);
            status.put(p.name(), p.stop(grace));
        }
        return status;
    }

    @Override
    public void close() {
        stop(Duration.ofSeconds(10));
    }
}
