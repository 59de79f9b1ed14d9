package perflab.core.workload;

import perflab.core.traffic.Traffic;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A reference workload: its server stacks (each started in its own JVM) and its traffic model. Registered
 * through {@link java.util.ServiceLoader} by the workload's traffic module (one line in
 * META-INF/services/perflab.core.workload.Workload).
 */
public interface Workload {
    String name();

    String description();

    /** The stacks that implement the server; the first is the default. */
    List<StackInfo> stacks();

    /** The operations the traffic can drive; the first is the default. */
    List<OperationInfo> operations();

    /** The request path of the service, appended to a bare http://host:port target. */
    String servicePath();

    /** Builds the traffic for one run; throws {@link IllegalArgumentException} with a one-line reason. */
    Traffic traffic(TrafficOptions options);

    /** The workload's own settings: flags of run, serve, drive and tune, in the order --help lists them. */
    default List<WorkloadSetting> settings() {
        return List.of();
    }

    /**
     * The server side of a run: companions to start beside the SUT and the SUT's workload settings.
     *
     * @param settings the {@link WorkloadSetting.Use#SERVER} settings, checked, every default filled in
     */
    default ServerSide serverSide(Map<String, String> settings) {
        return ServerSide.sutOnly(settings);
    }

    /**
     * The companions a server file's server may ask for by name ({@code companions: [NAME]}), laid out with the run's
     * server settings. By default those {@link #serverSide} starts with these settings; a workload whose companion
     * only some settings bring (trade's PostgreSQL, under {@code --db postgresql}) offers it here whatever they say,
     * for a server file's server is not its stack and reads none of them.
     */
    default List<Companion> serverFileCompanions(Map<String, String> settings) {
        return serverSide(settings).companions();
    }

    /**
     * Which of the workload's server settings configure {@code companion} rather than its stacks (trade's
     * {@code --db-outage} for its PostgreSQL): allowed beside a server file that asks for that companion, where the
     * others are refused. None by default.
     */
    default java.util.Set<String> companionSettings(String companion) {
        return java.util.Set.of();
    }

    /**
     * The server side of a run whose SUT is {@code instances} JVMs ({@code --instances}): named {@code sut-0} ..
     * (see {@link SutInstances}), each with {@link ServerSide#settingsOf its settings}, and a proxy in front of them
     * that the side names as its {@link ServerSide#entry entry}. A workload that cannot spread its users over
     * instances keeps this default, which takes one instance only.
     */
    default ServerSide serverSide(Map<String, String> settings, int instances) {
        if (instances != 1) {
            throw new IllegalArgumentException("--instances " + instances + ": " + name() + " runs as one SUT instance "
                    + "(a workload that runs as several lays out the proxy in front of them)");
        }
        return serverSide(settings);
    }

    /**
     * Load sources that run beside perflab's HTTP driver for the whole drive ({@link perflab.core.load.LoadSource}:
     * load of their own, or peers the SUT calls), each run by the plugin of its kind; none by default. Those that only
     * answer start before the server side, and their ports can be named in the server side's settings and the other
     * sources' declarations: {@code {phone.port}}.
     *
     * @param settings the {@link WorkloadSetting.Use#TRAFFIC} settings, checked, every default filled in
     */
    default List<perflab.core.load.LoadSource> loadSources(Map<String, String> settings) {
        return List.of();
    }

    /**
     * Writes files the run's processes read into the run directory (a load source's data file, read
     * from the run directory, its working directory). Called once per run, after every
     * check and before any process (a load source or the server side) starts; not for {@code perflab serve}. An
     * IOException fails the run with its message. Nothing by default.
     *
     * @param runDir          the run's directory, already there
     * @param trafficSettings the {@link WorkloadSetting.Use#TRAFFIC} settings, checked, every default filled in
     * @param seed            the run's random seed
     */
    default void writeRunFiles(java.nio.file.Path runDir, Map<String, String> trafficSettings, long seed)
            throws java.io.IOException {
    }

    /** The workload's presets (a study's run rule as flags, {@code --preset NAME}); none by default. */
    default List<Preset> presets() {
        return List.of();
    }

    /** The preset of that name; IllegalArgumentException naming the ones there are. */
    default Preset preset(String name) {
        return presets().stream().filter(p -> p.name().equals(name)).findFirst().orElseThrow(() ->
                new IllegalArgumentException("--preset " + name + ": " + name() + " has " + (presets().isEmpty()
                        ? "no presets" : "the presets " + String.join(", ", presets().stream().map(Preset::name).toList()))));
    }

    /**
     * Checks of the server's state once the driver has stopped, the server still running (trade's audit of its
     * books), asked at {@code target}, the run's service URI. A failed check fails the run; one the server cannot
     * answer is reported unavailable. None by default.
     */
    default List<perflab.core.result.RunCheck> checksAfterDrive(java.net.URI target) {
        return List.of();
    }

    /**
     * The checks after the drive of a SUT run as several instances: {@code instances} is each one's service URI
     * (the same path on its own port), in instance order, for checks that must ask every instance and add the
     * answers. By default the checks of {@code target}, the entry's URI.
     */
    default List<perflab.core.result.RunCheck> checksAfterDrive(java.net.URI target, List<java.net.URI> instances) {
        return checksAfterDrive(target);
    }

    /**
     * The SUT's own counters, sampled by perflab once a second over the run (timeseries-server.csv) and summarised
     * over the measured window (summary.json's {@code server}); null (the default) when the SUT tells none.
     */
    default ServerCounters serverCounters() {
        return null;
    }

    /**
     * The workload's own figures of the measured window, from everything else the run measured ({@code summary},
     * with {@code server} when {@link #serverCounters} is declared): summary.json's {@code figures}, shown on the
     * console and in the report in this map's order. Values are numbers, strings, or maps of them (a figure by
     * reason); a figure that cannot be known is left out. None by default.
     */
    default Map<String, Object> figures(perflab.core.result.RunSummary summary) {
        return Map.of();
    }

    /**
     * How a capacity search reads a trial of this workload: what {@code --rate} counts, the latency with its goal,
     * and what counts as failed. The driver's throughput, p99 and errors by default.
     */
    default CapacityMeasure capacity() {
        return CapacityMeasure.DRIVER;
    }

    /**
     * Whether the console ends a run with the closed model seen per client, in the block a client-thread harness
     * prints ("Overall Test Result": throughput per client, a client's mean time per call); off by default.
     */
    default boolean reportsPerClient() {
        return false;
    }

    default WorkloadSetting setting(String name) {
        return settings().stream().filter(s -> s.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("--" + name + " is not a setting of workload " + name()
                        + (settings().isEmpty() ? " (it has none of its own)" : "; its settings: "
                        + String.join(", ", settings().stream().map(s -> "--" + s.name()).toList()))));
    }

    /** Given settings checked against the declarations and made canonical, in the order given. */
    default Map<String, String> checkSettings(Map<String, String> given) {
        Map<String, String> checked = new LinkedHashMap<>();
        given.forEach((name, value) -> checked.put(name, setting(name).normalize(value)));
        return checked;
    }

    /**
     * Every setting {@code use} (TRAFFIC or SERVER) reads, BOTH included: the given (canonical) value or the
     * default; optional ones without a value are left out.
     */
    default Map<String, String> resolveSettings(WorkloadSetting.Use use, Map<String, String> given) {
        Map<String, String> checked = checkSettings(given);
        Map<String, String> resolved = new LinkedHashMap<>();
        for (WorkloadSetting s : settings()) {
            if (!s.use().readBy(use)) {
                continue;
            }
            String value = checked.getOrDefault(s.name(), s.defaultValue());
            if (value != null) {
                resolved.put(s.name(), value);
            }
        }
        return resolved;
    }

    /**
     * The stack a run starts when none is named: the first; IllegalArgumentException of one line for a workload with no
     * server of its own (a scenario file), which is driven against a server a run is given.
     */
    default StackInfo defaultStack() {
        if (stacks().isEmpty()) {
            throw new IllegalArgumentException(name() + " has no server of its own: give the server with --server FILE, "
                    + "or drive one already running with --target URL");
        }
        return stacks().get(0);
    }

    default StackInfo stack(String name) {
        return stacks().stream().filter(s -> s.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown stack '" + name + "' for workload "
                        + name() + "; known stacks: " + String.join(", ", stacks().stream().map(StackInfo::name).toList())));
    }

    default OperationInfo operation(String name) {
        return operations().stream().filter(o -> o.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown operation '" + name + "' for workload "
                        + name() + "; known operations: " + String.join(", ", operations().stream().map(OperationInfo::name).toList())));
    }

    /**
     * The files a workload declared in a file reads to build its traffic (the file itself, its data and body files),
     * absolute: agents on other machines are sent them. Empty for a workload written in Java.
     */
    default List<java.nio.file.Path> files() {
        return List.of();
    }
}
