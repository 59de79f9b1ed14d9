package perflab.experiment.run;

import perflab.core.load.LoadColumn;
import perflab.core.load.LoadPeriod;
import perflab.core.load.LoadSource;
import perflab.core.load.LoadSourceKinds;
import perflab.core.load.LoadSourcePlan;
import perflab.core.load.LoadSourceProcess;
import perflab.core.result.Decimals;
import perflab.core.result.LoadFigures;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;

/**
 * The load sources of one run beside the driver ({@link LoadSource}s a workload declares, each run by the plugin of
 * its kind): planned and checked before anything starts; started in two groups, those that only answer before the
 * server side and those that load the SUT once it is ready (each waited for until ready); stopped when the drive
 * ends, and read back: their figures over the measured window for summary.json's {@code loads}, and their periods
 * for timeseries-loads.csv and the fail-over phases. An answering source's ports are {@code {<name>.<port>}} to the
 * server side and the sources started after it.
 */
final class LoadSources implements AutoCloseable {
    static final String SECONDS_CSV = "timeseries-loads.csv";

    private record Planned(LoadSource source, LoadSourcePlan plan) {
    }

    private record Started(LoadSource source, LoadSourceProcess process) {
    }

    private final List<Planned> planned;
    /** Read by a Ctrl-C's thread too ({@link RunOrchestrator#interrupt}), while the run's thread may add to it. */
    private final List<Started> started = new java.util.concurrent.CopyOnWriteArrayList<>();

    private LoadSources(List<Planned> planned) {
        this.planned = planned;
    }

    /**
     * Checks the sources; throws IllegalArgumentException with a one-line reason: a kind no plugin runs, what its
     * plugin refuses (a tool not installed, a file missing), two with one name, one named like a process of the
     * server side, a port reference to nothing it can know when it starts (a process of the server side for one
     * that answers; an answering source's port, declared earlier, for any).
     *
     * @param processes the names of the processes the server side starts; empty when perflab starts none (--target)
     */
    static LoadSources plan(List<LoadSource> sources, Path perflabHome, Set<String> processes) {
        if (sources.stream().map(LoadSource::name).distinct().count() != sources.size()) {
            throw new IllegalArgumentException("two load sources have the same name");
        }
        List<Planned> planned = new ArrayList<>();
        for (LoadSource source : sources) {
            if (processes.contains(source.name())) {
                throw new IllegalArgumentException(label(source) + " has the name of a process of the server side: the "
                        + "two would share run.json's and summary.json's processes." + source.name() + "; rename one");
            }
            LoadSourcePlan plan = LoadSourceKinds.of(source).plan(source, perflabHome);
            for (String word : source.portReferences()) {
                Matcher m = ServerLaunch.PORT_REFERENCE.matcher(word);
                while (m.find()) {
                    checkReference(source, m.group(), m.group(1), m.group(2), sources, planned, processes);
                }
            }
            planned.add(new Planned(source, plan));
        }
        return new LoadSources(List.copyOf(planned));
    }

    /** "load source phone (sipp)": how a message names one. */
    static String label(LoadSource source) {
        return "load source " + source.name() + " (" + source.kind() + ")";
    }

    /** One {@code {name.port}} in {@code source}'s declaration: something started before it. */
    private static void checkReference(LoadSource source, String reference, String name, String portName,
                                       List<LoadSource> sources, List<Planned> before, Set<String> processes) {
        String prefix = label(source) + " needs " + reference + ", ";
        LoadSource named = sources.stream().filter(l -> l.name().equals(name)).findFirst().orElse(null);
        if (named != null) {
            checkSourceReference(prefix, named, portName);
            if (source.answersOnly() && before.stream().noneMatch(p -> p.source().name().equals(name))) {
                throw new IllegalArgumentException(prefix + "but " + label(named) + " does not start before it "
                        + "(answering sources start in the order declared)");
            }
        } else if (source.answersOnly()) {
            throw new IllegalArgumentException(prefix + "but it answers, so it starts before the server side: it can "
                    + "name only the port of an answering load source declared before it");
        } else if (!processes.contains(name)) {
            throw new IllegalArgumentException(prefix + (processes.isEmpty()
                    ? "a port of the server side perflab starts: it cannot run with --target"
                    : "but no process of the server side and no load source that answers is named " + name));
        }
    }

    /**
     * A reference to load source {@code named}: to one of an answering one's ports; one that loads the SUT starts
     * after the server side, too late to be named.
     */
    static void checkSourceReference(String prefix, LoadSource named, String portName) {
        if (!named.answersOnly()) {
            throw new IllegalArgumentException(prefix + "but " + label(named) + " loads the SUT and starts after the "
                    + "server side: only an answering source's port can be named");
        }
        if (!named.portNames().contains(portName)) {
            throw new IllegalArgumentException(prefix + "but " + label(named) + " has the ports " + String.join(", ",
                    named.portNames().stream().map(p -> "{" + named.name() + "." + p + "}").toList()));
        }
    }

    boolean isEmpty() {
        return planned.isEmpty();
    }

    /** The sources as the workload declared them. */
    List<LoadSource> declared() {
        return planned.stream().map(Planned::source).toList();
    }

    /** Whether some source only answers: it starts before the server side. */
    boolean hasAnswerers() {
        return planned.stream().anyMatch(p -> p.source().answersOnly());
    }

    /** Whether some source loads the SUT: load of its own, beside the driver's. */
    boolean hasLoaders() {
        return planned.stream().anyMatch(p -> !p.source().answersOnly());
    }

    /** The first source that loads the SUT, for a message; null when none does. */
    LoadSource firstLoader() {
        return planned.stream().map(Planned::source).filter(s -> !s.answersOnly()).findFirst().orElse(null);
    }

    /**
     * Starts every source that only answers, in order, each ready before the next starts; if one fails, those
     * started are stopped. Called before the server side starts.
     *
     * @param bound how long they can be needed at most (the server side's start and the drive)
     */
    void startAnswerers(Path runDir, Duration bound) throws RunFailure {
        start(true, runDir, Map.of(), bound);
    }

    /**
     * Starts every source that loads the SUT, in order, each ready before the next starts; if one fails, every
     * source started is stopped. Called once the server side is ready (none with --target).
     *
     * @param serverPorts the ports the server side's processes announced, by process and port name
     * @param bound       how long the drive can last at most
     */
    void startLoaders(Path runDir, Map<String, Map<String, Integer>> serverPorts, Duration bound) throws RunFailure {
        start(false, runDir, serverPorts, bound);
    }

    private void start(boolean answerers, Path runDir, Map<String, Map<String, Integer>> serverPorts, Duration bound)
            throws RunFailure {
        LoadSource current = null;
        try {
            for (Planned p : planned) {
                if (p.source().answersOnly() != answerers) {
                    continue;
                }
                current = p.source();
                Map<String, Map<String, Integer>> ports = new LinkedHashMap<>(serverPorts);
                ports.putAll(answererPorts());
                LoadSourceProcess process = p.plan().start(runDir,
                        word -> ServerLaunch.resolve(List.of(word), ports).get(0), bound);
                started.add(new Started(p.source(), process));
            }
        } catch (IOException | RuntimeException e) {
            stop(Duration.ofSeconds(5));
            throw new RunFailure((current == null ? "load source" : label(current)) + ": " + e.getMessage());
        }
    }

    /** The ports of each answering source started, as references name them: {@code {phone.port}}. */
    Map<String, Map<String, Integer>> answererPorts() {
        Map<String, Map<String, Integer>> ports = new LinkedHashMap<>();
        started.stream().filter(s -> s.source().answersOnly()).forEach(s -> ports.put(s.source().name(), s.process().ports()));
        return ports;
    }

    /** Pids by name: what the monitor samples beside the server side. */
    Map<String, Long> pids() {
        Map<String, Long> pids = new LinkedHashMap<>();
        started.forEach(s -> pids.put(s.source().name(), s.process().pid()));
        return pids;
    }

    /** The ports each source listens on, by name (run.json). */
    Map<String, Map<String, Integer>> ports() {
        Map<String, Map<String, Integer>> ports = new LinkedHashMap<>();
        started.forEach(s -> ports.put(s.source().name(), s.process().ports()));
        return ports;
    }

    /** The ports each source declares ({@link LoadSource#portNames}), by name: what the console says it listens on. */
    Map<String, Map<String, Integer>> declaredPorts() {
        Map<String, Map<String, Integer>> ports = new LinkedHashMap<>();
        started.forEach(s -> {
            Map<String, Integer> declared = new LinkedHashMap<>(s.process().ports());
            declared.keySet().retainAll(s.source().portNames());
            ports.put(s.source().name(), declared);
        });
        return ports;
    }

    /** The kind of each source started, by name. */
    Map<String, String> kinds() {
        Map<String, String> kinds = new LinkedHashMap<>();
        started.forEach(s -> kinds.put(s.source().name(), s.source().kind()));
        return kinds;
    }

    /** The command lines as run (run.json). */
    Map<String, List<String>> commands() {
        Map<String, List<String>> commands = new LinkedHashMap<>();
        started.forEach(s -> commands.put(s.source().name(), s.process().command()));
        return commands;
    }

    /** Exit status by name while it runs (null) or once it has ended by itself. */
    Map<String, Integer> exitCodes() {
        Map<String, Integer> codes = new LinkedHashMap<>();
        started.forEach(s -> codes.put(s.source().name(), s.process().exitCode()));
        return codes;
    }

    /** For each source that has ended by itself while the drive ran: which, and why (in its own words). */
    List<String> endedEarly() {
        return started.stream().filter(s -> !s.process().alive())
                .map(s -> label(s.source()) + " ended before the drive did: " + s.process().exitExplanation())
                .toList();
    }

    /**
     * Stops every source with one grace for all: each is asked first, then all are waited for until the same
     * deadline, not each for a grace of its own (three answering SIPps whose calls on hold never finish once the
     * drive is over waited three graces, 15 s, after every run so). Exit status by name.
     */
    Map<String, Integer> stop(Duration grace) {
        started.forEach(s -> s.process().askToStop());
        long deadline = System.nanoTime() + grace.toNanos();
        Map<String, Integer> codes = new LinkedHashMap<>();
        for (Started s : started) {
            codes.put(s.source().name(), s.process().stop(Duration.ofNanos(Math.max(0, deadline - System.nanoTime()))));
        }
        return codes;
    }

    /** Each source's figures over [from, to]: its periods that lie wholly inside. */
    Map<String, LoadFigures> figures(Instant from, Instant to) {
        Map<String, LoadFigures> figures = new LinkedHashMap<>();
        started.forEach(s -> figures.put(s.source().name(), s.process().figures(from, to)));
        return figures;
    }

    /** Each source's periods and their columns, the whole run's. */
    Map<String, Periods> periods() {
        Map<String, Periods> all = new LinkedHashMap<>();
        started.forEach(s -> all.put(s.source().name(), new Periods(s.process().periods(), s.process().columns())));
        return all;
    }

    /** The names of the columns, of any source, that count trouble ({@link LoadColumn#trouble}). */
    Set<String> troubleColumns() {
        Set<String> names = new LinkedHashSet<>();
        started.forEach(s -> s.process().columns().forEach(c -> {
            if (c.trouble()) {
                names.add(c.name());
            }
        }));
        return names;
    }

    /** One source's periods, and how each column adds up over a part of the window. */
    record Periods(List<LoadPeriod> rows, List<LoadColumn> columns) {
    }

    /**
     * timeseries-loads.csv: one row per source and period, with its phase in the driver's run ({@code measure}
     * when it lies wholly inside the measured window, {@code warmup} when it starts before, {@code after}) and
     * {@code second} counted from the drive's start like timeseries.csv's; then every column any source has, in the
     * order the sources give them (a source without a column leaves it empty).
     */
    void writeSeconds(Path file, long driveStartMs, long measureStartMs, long measureEndMs) throws IOException {
        Map<String, Periods> all = periods();
        Set<String> columns = new LinkedHashSet<>();
        all.values().forEach(p -> p.columns().forEach(c -> columns.add(c.name())));
        StringBuilder out = new StringBuilder("second,phase,epochMs,load");
        columns.forEach(c -> out.append(',').append(c));
        out.append('\n');
        all.forEach((name, p) -> {
            for (LoadPeriod r : p.rows()) {
                long at = r.epochMs();
                // "measure" for exactly the periods the window's figures are made of (wholly inside it)
                String phase = r.inside(Instant.ofEpochMilli(measureStartMs), Instant.ofEpochMilli(measureEndMs)) ? "measure"
                        : r.startEpochMicros() < measureStartMs * 1000 ? "warmup" : "after";
                out.append(Math.max(0, Math.round((at - driveStartMs) / 1000.0))).append(',').append(phase).append(',')
                        .append(at).append(',').append(name);
                for (String c : columns) {
                    Double v = r.values().get(c);
                    // a count whole, a rate or a mean in ms with 3 decimals
                    out.append(',').append(v == null ? "" : Decimals.compact(v, 3));
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
