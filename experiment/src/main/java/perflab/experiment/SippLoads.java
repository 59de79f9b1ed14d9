package perflab.experiment;

import perflab.core.result.SipLoadFigures;
import perflab.core.workload.SippLoad;
import perflab.experiment.load.LocalSockets;
import perflab.experiment.load.SipSecond;
import perflab.experiment.load.SippCommand;
import perflab.experiment.load.SippProcess;
import perflab.experiment.load.SippScenario;
import perflab.experiment.load.SippStatistics;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;

/**
 * The SIPp instances of one run ({@link SippLoad}s a workload declares): planned and checked before anything
 * starts; started in two groups, those that only answer before the server side and those that place calls once it
 * is ready (each on a UDP port chosen here, each waited for until it has bound it); stopped when the drive ends,
 * and read back: their figures over the measured window for summary.json's {@code loads}, and their periods for
 * timeseries-loads.csv. An answering load's port is {@code {<name>.port}} to the server side and the other loads.
 */
final class SippLoads implements AutoCloseable {
    static final String SECONDS_CSV = "timeseries-loads.csv";
    /** A SIPp that only answers stops at this many calls: never, in a run. */
    private static final long ANSWERER_MAX_CALLS = 1_000_000_000L;
    /** SIPp writes its -trace_rtt file every this many calls (and at exit). */
    private static final int RTT_FLUSH_CALLS = 100;
    private static final Duration START_TIMEOUT = Duration.ofSeconds(20);
    /** An answering load's port as the server side and the other loads name it: {@code {phone.port}}. */
    static final String PORT = "port";

    /** A load with its scenario checked and its target split into host and port (either may name a port). */
    private record Planned(SippLoad load, SippScenario scenario, String host, String port) {
    }

    private static final class Started {
        final Planned plan;
        final SippProcess process;
        /** Read once SIPp has exited: its files are complete then and do not change. */
        private SippStatistics statistics;

        Started(Planned plan, SippProcess process) {
            this.plan = plan;
            this.process = process;
        }

        Planned plan() {
            return plan;
        }

        SippProcess process() {
            return process;
        }

        SippStatistics statistics() throws IOException {
            if (statistics == null || process.alive()) {
                statistics = process.statistics();
            }
            return statistics;
        }
    }

    private final List<Planned> planned;
    private final String executable;
    /** Read by a Ctrl-C's thread too ({@link RunOrchestrator#interrupt}), while the run's thread may add to it. */
    private final List<Started> started = new java.util.concurrent.CopyOnWriteArrayList<>();

    private SippLoads(List<Planned> planned, String executable) {
        this.planned = planned;
        this.executable = executable;
    }

    /**
     * Checks the loads; throws IllegalArgumentException with a one-line reason: SIPp not installed, a scenario
     * file missing, a target that is not host:port, a load named like a process of the server side, a port
     * reference to nothing it can know when it starts (a process of the server side for a load that places calls;
     * an answering load's {@code port}, declared earlier for a load that answers itself).
     *
     * @param processes the names of the processes the server side starts; empty when perflab starts none (--target)
     */
    static SippLoads plan(List<SippLoad> loads, Path perflabHome, Set<String> processes) {
        if (loads.isEmpty()) {
            return new SippLoads(List.of(), null);
        }
        String executable = SippCommand.installedExecutable().map(Path::toString).orElseThrow(() ->
                new IllegalArgumentException("this workload runs SIPp (load " + loads.get(0).name()
                        + ") and sipp is not installed: install the Debian package sip-tester"));
        if (loads.stream().map(SippLoad::name).distinct().count() != loads.size()) {
            throw new IllegalArgumentException("two SIPp loads have the same name");
        }
        List<Planned> planned = new ArrayList<>();
        for (SippLoad load : loads) {
            if (processes.contains(load.name())) {
                throw new IllegalArgumentException("SIPp load " + load.name() + " has the name of a process of the server "
                        + "side: the two would share run.json's and summary.json's processes." + load.name() + "; rename one");
            }
            SippScenario scenario = SippScenario.BUILT_IN.contains(load.scenario()) ? SippScenario.builtIn(load.scenario())
                    : scenarioFile(load, perflabHome);
            String host = null;
            String port = null;
            if (load.placesCalls()) {
                int colon = load.target().lastIndexOf(':');
                if (colon <= 0 || colon == load.target().length() - 1) {
                    throw new IllegalArgumentException("SIPp load " + load.name() + ": target '" + load.target()
                            + "' is not host:port (127.0.0.1:{sut.sip})");
                }
                host = load.target().substring(0, colon);
                port = load.target().substring(colon + 1);
            }
            List<String> words = new ArrayList<>(load.extra());
            if (port != null) {
                words.add(port);
            }
            for (String word : words) {
                Matcher m = ServerLaunch.PORT_REFERENCE.matcher(word);
                while (m.find()) {
                    checkReference(load, m.group(), m.group(1), m.group(2), loads, planned, processes);
                }
            }
            planned.add(new Planned(load, scenario, host, port));
        }
        return new SippLoads(List.copyOf(planned), executable);
    }

    /** One {@code {name.port}} in {@code load}'s target or options: something started before it. */
    private static void checkReference(SippLoad load, String reference, String name, String portName, List<SippLoad> loads,
                                       List<Planned> before, Set<String> processes) {
        String prefix = "SIPp load " + load.name() + " needs " + reference + ", ";
        SippLoad named = loads.stream().filter(l -> l.name().equals(name)).findFirst().orElse(null);
        if (named != null) {
            checkLoadReference(prefix, named, portName);
            if (!load.placesCalls() && before.stream().noneMatch(p -> p.load().name().equals(name))) {
                throw new IllegalArgumentException(prefix + "but SIPp load " + name + " does not start before it "
                        + "(answering loads start in the order declared)");
            }
        } else if (!load.placesCalls()) {
            throw new IllegalArgumentException(prefix + "but it answers, so it starts before the server side: it can "
                    + "name only the port of an answering SIPp load declared before it");
        } else if (!processes.contains(name)) {
            throw new IllegalArgumentException(prefix + (processes.isEmpty()
                    ? "a port of the server side perflab starts: it cannot run with --target"
                    : "but no process of the server side and no SIPp load that answers is named " + name));
        }
    }

    /**
     * A reference to SIPp load {@code named}: to an answering one's only port, {@code port}; one that places calls
     * starts after the server side, too late to be named.
     */
    static void checkLoadReference(String prefix, SippLoad named, String portName) {
        if (named.placesCalls()) {
            throw new IllegalArgumentException(prefix + "but SIPp load " + named.name() + " places calls and starts "
                    + "after the server side: only an answering load's port can be named");
        }
        if (!portName.equals(PORT)) {
            throw new IllegalArgumentException(prefix + "but SIPp load " + named.name() + " has one port, {"
                    + named.name() + "." + PORT + "}");
        }
    }

    private static SippScenario scenarioFile(SippLoad load, Path perflabHome) {
        try {
            return SippScenario.file(perflabHome.resolve(load.scenario()));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("SIPp load " + load.name() + ": " + e.getMessage());
        }
    }

    boolean isEmpty() {
        return planned.isEmpty();
    }

    /** The names, as declared (answering loads start in this order, then those that place calls). */
    List<String> names() {
        return planned.stream().map(p -> p.load().name()).toList();
    }

    /** The loads as the workload declared them. */
    List<SippLoad> declared() {
        return planned.stream().map(Planned::load).toList();
    }

    /** Whether some load only answers: it starts before the server side. */
    boolean hasAnswerers() {
        return planned.stream().anyMatch(p -> !p.load().placesCalls());
    }

    /** Whether some load places calls: load of its own, beside the driver's. */
    boolean hasCallers() {
        return planned.stream().anyMatch(p -> p.load().placesCalls());
    }

    /**
     * Starts every load that only answers, in order, each bound before the next starts; if one fails, those started
     * are stopped. Called before the server side starts.
     *
     * @param bound how long they can be needed at most (the server side's start and the drive): SIPp's own -timeout,
     *              so that it ends even if perflab dies
     */
    void startAnswerers(Path runDir, Duration bound) throws RunFailure {
        start(false, runDir, Map.of(), bound);
    }

    /**
     * Starts every load that places calls, in order, each bound before the next starts; if one fails, every load
     * started is stopped. Called once the server side is ready (none with --target).
     *
     * @param serverPorts the ports the server side's processes announced, by process and port name
     * @param bound       how long the drive can last at most: SIPp's own -timeout, so that it ends even if perflab dies
     */
    void startCallers(Path runDir, Map<String, Map<String, Integer>> serverPorts, Duration bound) throws RunFailure {
        start(true, runDir, serverPorts, bound);
    }

    private void start(boolean callers, Path runDir, Map<String, Map<String, Integer>> serverPorts, Duration bound)
            throws RunFailure {
        try {
            for (Planned p : planned) {
                if (p.load().placesCalls() != callers) {
                    continue;
                }
                Map<String, Map<String, Integer>> ports = new LinkedHashMap<>(serverPorts);
                ports.putAll(answererPorts());
                SippCommand command = command(p, runDir, ports, bound);
                SippProcess process = SippProcess.start(command, runDir, p.load().name());
                started.add(new Started(p, process));
                process.awaitStarted(START_TIMEOUT);
            }
        } catch (IOException | RuntimeException e) {
            stop(Duration.ofSeconds(5));
            throw new RunFailure("SIPp load: " + e.getMessage());
        }
    }

    /** The port of each answering load started, as references name it: {@code {phone.port}}. */
    Map<String, Map<String, Integer>> answererPorts() {
        Map<String, Map<String, Integer>> ports = new LinkedHashMap<>();
        started.stream().filter(s -> !s.plan().load().placesCalls())
                .forEach(s -> ports.put(s.plan().load().name(), Map.of(PORT, s.process().command().localPort())));
        return ports;
    }

    private SippCommand command(Planned p, Path runDir, Map<String, Map<String, Integer>> ports, Duration bound)
            throws IOException {
        SippLoad load = p.load();
        long seconds = Math.max(1, bound.toSeconds());
        SippCommand.Builder b = SippCommand.builder(p.scenario()).executable(executable).localPort(LocalSockets.freeUdpPort())
                .timeout(Duration.ofSeconds(seconds)).files(runDir, load.name())
                // every response time, so the window has percentiles, not only SIPp's per-period means
                .traceResponseTimes(RTT_FLUSH_CALLS)
                .extra(ServerLaunch.resolve(load.extra(), ports).toArray(String[]::new));
        if (load.placesCalls()) {
            int port;
            try {
                port = Integer.parseInt(ServerLaunch.resolve(List.of(p.port()), ports).get(0));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("SIPp load " + load.name() + ": target port '" + p.port() + "' is not a number");
            }
            // -m bounds the work: every call the rate can place in the bound, and a little more
            b.target(p.host(), port).rate(load.callsPerSecond())
                    .maxCalls((long) Math.ceil(load.callsPerSecond() * seconds * 1.1) + 1);
        } else {
            b.maxCalls(ANSWERER_MAX_CALLS);
        }
        if (load.maxOpenCalls() > 0) {
            b.callLimit(load.maxOpenCalls());
        }
        if (load.recvTimeout() != null) {
            b.recvTimeout(load.recvTimeout());
        }
        return b.build();
    }

    /** Pids by name: what the monitor samples beside the server side. */
    Map<String, Long> pids() {
        Map<String, Long> pids = new LinkedHashMap<>();
        started.forEach(s -> pids.put(s.plan().load().name(), s.process().pid()));
        return pids;
    }

    /**
     * The UDP port each SIPp bound (run.json): as {@code port}, the name references use, and as {@code sip}, the
     * name run.json gave it first.
     */
    Map<String, Map<String, Integer>> ports() {
        Map<String, Map<String, Integer>> ports = new LinkedHashMap<>();
        started.forEach(s -> {
            Map<String, Integer> named = new LinkedHashMap<>();
            named.put(PORT, s.process().command().localPort());
            named.put("sip", s.process().command().localPort());
            ports.put(s.plan().load().name(), named);
        });
        return ports;
    }

    /** The command lines as run (run.json). */
    Map<String, List<String>> commands() {
        Map<String, List<String>> commands = new LinkedHashMap<>();
        started.forEach(s -> commands.put(s.plan().load().name(), s.process().command().arguments()));
        return commands;
    }

    /** Exit status by name while it runs (null) or once it has ended by itself. */
    Map<String, Integer> exitCodes() {
        Map<String, Integer> codes = new LinkedHashMap<>();
        started.forEach(s -> codes.put(s.plan().load().name(), s.process().exitCode()));
        return codes;
    }

    /** For each SIPp that has ended by itself while the drive ran: which, and why (SIPp's own words). */
    List<String> endedEarly() {
        return started.stream().filter(s -> !s.process().alive())
                .map(s -> "SIPp " + s.plan().load().name() + " ended before the drive did: " + s.process().exitExplanation())
                .toList();
    }

    /**
     * Stops every SIPp: no new call, and those open finish within {@code grace}, one grace for all of them
     * ({@link SippProcess#stopAll}); exit status by name.
     */
    Map<String, Integer> stop(Duration grace) {
        List<Integer> exits = SippProcess.stopAll(started.stream().map(Started::process).toList(), grace);
        Map<String, Integer> codes = new LinkedHashMap<>();
        for (int i = 0; i < started.size(); i++) {
            codes.put(started.get(i).plan().load().name(), exits.get(i));
        }
        return codes;
    }

    /**
     * Each load's figures over [from, to]: its statistics periods that lie wholly inside. A load whose file
     * cannot be read gets empty figures with the reason as their note, never a failed run.
     */
    Map<String, SipLoadFigures> figures(Instant from, Instant to) {
        Map<String, SipLoadFigures> figures = new LinkedHashMap<>();
        for (Started s : started) {
            SipLoadFigures f;
            try {
                f = s.statistics().figures(from, to);
            } catch (IOException | RuntimeException e) {
                f = SippStatistics.empty(from, to, "SIPp's statistics could not be read: " + e.getMessage());
            }
            figures.put(s.plan().load().name(), f);
        }
        return figures;
    }

    /** Each load's statistics periods, the whole run's; none for a load whose file cannot be read. */
    Map<String, List<SipSecond>> seconds() {
        Map<String, List<SipSecond>> rows = new LinkedHashMap<>();
        for (Started s : started) {
            List<SipSecond> seconds;
            try {
                seconds = s.statistics().seconds();
            } catch (IOException | RuntimeException e) {
                seconds = List.of(); // figures() says why in summary.json
            }
            rows.put(s.plan().load().name(), seconds);
        }
        return rows;
    }

    /**
     * timeseries-loads.csv: one row per load and SIPp period, with its phase in the driver's run ({@code measure}
     * when it lies wholly inside the measured window, {@code warmup} when it starts before, {@code after}) and
     * {@code second} counted from the drive's start like timeseries.csv's. One response-time column per rtd any
     * load reported.
     */
    void writeSeconds(Path file, long driveStartMs, long measureStartMs, long measureEndMs) throws IOException {
        Map<String, List<SipSecond>> rows = seconds();
        Set<String> rtds = new TreeSet<>();
        rows.values().forEach(seconds -> seconds.forEach(r -> rtds.addAll(r.responseTimeMeanMs().keySet())));
        StringBuilder out = new StringBuilder("second,phase,epochMs,load,callsPerSecond,callsCreated,successfulCalls,"
                + "failedCalls,retransmissions,currentCalls");
        rtds.forEach(rtd -> out.append(",rtd").append(rtd).append("MeanMs"));
        out.append('\n');
        rows.forEach((name, seconds) -> {
            for (SipSecond r : seconds) {
                long at = r.epochMs();
                // "measure" for exactly the periods the window's figures are made of (wholly inside it)
                String phase = r.inside(Instant.ofEpochMilli(measureStartMs), Instant.ofEpochMilli(measureEndMs)) ? "measure"
                        : r.startEpochMicros() < measureStartMs * 1000 ? "warmup" : "after";
                out.append(String.format(Locale.ROOT, "%d,%s,%d,%s,%.2f,%d,%d,%d,%d,%d",
                        Math.max(0, Math.round((at - driveStartMs) / 1000.0)), phase, at, name, r.callsPerSecond(),
                        r.callsCreated(), r.successfulCalls(), r.failedCalls(), r.retransmissions(), r.currentCalls()));
                for (String rtd : rtds) {
                    Double mean = r.responseTimeMeanMs().get(rtd);
                    out.append(',').append(mean == null ? "" : String.format(Locale.ROOT, "%.3f", mean));
                }
                out.append('\n');
            }
        });
        perflab.core.result.AtomicFiles.write(file, out.toString());
    }

    @Override
    public void close() {
        stop(Duration.ofSeconds(5));
    }
}
