package perflab.experiment.run;

import perflab.core.config.RunConfig;
import perflab.core.result.LatencySummary;
import perflab.core.result.RunCheck;
import perflab.core.result.RunSummary;
import perflab.core.result.LoadFigures;
import perflab.core.result.Steadiness;
import perflab.core.result.gc.GcAnalysis;
import perflab.core.traffic.ErrorKind;
import perflab.driver.DriverResult;
import perflab.core.workload.SutInstances;
import perflab.monitor.RunMonitor;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The arithmetic of summary.json: a run's measured figures (the driver's result, the monitor's window, the
 * processes' ends) turned into its {@link RunSummary}. Pure: no files, no clocks, so each figure's rule is
 * tested on its own.
 */
final class RunSummarizer {
    /**
     * How a monitored process ended the run.
     *
     * @param exitCode its exit status when it was already gone at the window's end, else null
     */
    record ProcessEnd(long pid, Integer exitCode) {
    }

    /**
     * What the run measured, beside the driver's result.
     *
     * @param database the name of the process that is the run's database, or null
     */
    record Measured(DriverResult driver, RunMonitor.Window window, int machineCpus, double[] throughputPerSecond,
                    Map<String, ProcessEnd> processes, GcAnalysis gc, RunSummary.Warmup warmup,
                    Map<String, LoadFigures> loads, Map<String, RunCheck> checks, String database,
                    perflab.core.result.ServerWindow server) {
    }

    private RunSummarizer() {
    }

    static RunSummary summarize(RunConfig config, String workload, String stack, Measured m, boolean complete,
                                String endReason) {
        RunConfig.Load load = config.load();
        DriverResult r = m.driver();
        double seconds = r.measuredSeconds();
        double throughput = seconds > 0 ? r.successes() / seconds : 0;
        Map<String, Long> errors = new LinkedHashMap<>();
        for (ErrorKind kind : ErrorKind.values()) {
            errors.put(kind.jsonName(), r.errors().getOrDefault(kind, 0L));
        }
        errors.put("total", r.errorCount());
        RunMonitor.Window window = m.window();
        Map<String, RunSummary.Sut> processes = new LinkedHashMap<>();
        m.processes().forEach((name, end) -> {
            RunMonitor.SutWindow w = window.processes().get(name);
            // a process that is gone before perflab stopped it crashed, unless the run ended well anyway
            Boolean crashed = end.exitCode() != null && !complete ? Boolean.TRUE : Boolean.FALSE;
            processes.put(name, processFigures(end.pid(), w, r, seconds, m.machineCpus(), crashed, end.exitCode()));
        });
        RunSummary.Sut sut = processes.get(RunMonitor.SUT);
        if (sut == null && window.sut() != null) {
            // a SUT run as several instances: the sum of theirs, with no pid of its own; crashed if any one did
            boolean anyCrashed = processes.entrySet().stream().anyMatch(e -> SutInstances.reserved(e.getKey())
                    && Boolean.TRUE.equals(e.getValue().crashed()));
            sut = processFigures(null, window.sut(), r, seconds, m.machineCpus(), anyCrashed, null);
        }
        RunSummary.Machine machine = Double.isNaN(window.machineCpuPercent()) ? null
                : new RunSummary.Machine(round(window.machineCpuPercent()), m.machineCpus());
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
                load.rate() > 0 ? LatencySummary.of(r.lag()) : null, r.bytesSent(), r.bytesReceived(), r.resent());
        // A harness's meaning: each client's measured seconds summed; every client runs the whole window.
        double clientSeconds = load.clients() * seconds;
        RunSummary.PerClient perClient = new RunSummary.PerClient(
                clientSeconds > 0 ? round(r.successes() / clientSeconds) : 0,
                r.successes() > 0 ? round(clientSeconds * 1000 / r.successes()) : 0, r.successes(), round(clientSeconds));
        return new RunSummary(workload, stack, config.operation(), load.model(), load.clients(),
                load.rate() > 0 ? load.rate() : null, complete, endReason, round(seconds), r.requests(),
                r.successes(), errors, round(throughput), round(throughput / load.clients()),
                LatencySummary.of(r.latency()), LatencySummary.of(r.serviceTime()), LatencySummary.of(r.failedLatency()),
                Steadiness.of(m.throughputPerSecond()), driverFigures, sut, machine, network,
                m.gc(), perClient, processes, m.warmup(), byKind(r, seconds), m.loads(), m.checks(),
                database(m.database(), sut, processes, r.successes()), m.server(), null);
    }

    /**
     * summary.json's database: the figures of the process playing it, and the SUT's and its CPU together per
     * successful request (null when either CPU is unknown). Null when no process is the database.
     */
    static RunSummary.Database database(String name, RunSummary.Sut sut, Map<String, RunSummary.Sut> processes,
                                        long successes) {
        RunSummary.Sut db = name == null ? null : processes.get(name);
        if (db == null) {
            return null;
        }
        Double both = sut == null || sut.cpuSeconds() == null || db.cpuSeconds() == null ? null
                : sut.cpuSeconds() + db.cpuSeconds();
        return new RunSummary.Database(name, db.pid(), db.cpuSeconds(), db.cpuPercent(), db.cpuPercentOfMachine(),
                db.cpuMicrosPerRequest(), db.rssMb(), db.maxRssMb(), db.processes(),
                both != null && successes > 0 ? round(both * 1e6 / successes) : null,
                both != null && both > 0 ? round(successes / both) : null);
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

    /**
     * How the warm-up ended: the rule of {@link RunSummary.Warmup}.
     *
     * @param warmedUp       whether an automatic warm-up found the system warm
     * @param notWarmBecause what its last seconds still showed, when it was not
     */
    static RunSummary.Warmup warmup(RunConfig.Load load, DriverResult r, long driveStartMs, boolean warmedUp,
                                    String notWarmBecause) {
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
        } else if (warmedUp) {
            endedBy = "steady";
        } else {
            endedBy = "max";
            because = notWarmBecause;
        }
        return new RunSummary.Warmup(endedBy, round(seconds), max, because);
    }

    /** A monitored process's figures over the measured window; per request means per successful request. */
    private static RunSummary.Sut processFigures(Long pid, RunMonitor.SutWindow w, DriverResult r, double seconds,
                                                 int machineCpus, Boolean crashed, Integer exitCode) {
        double cpu = w == null ? Double.NaN : w.cpuSeconds();
        return new RunSummary.Sut(pid, round(cpu), w == null ? null : round(w.userSeconds()),
                w == null ? null : round(w.systemSeconds()), round(seconds > 0 ? 100 * cpu / seconds : 0),
                seconds > 0 && w != null ? round(100 * cpu / seconds / machineCpus) : null,
                r.successes() > 0 ? round(cpu * 1e6 / r.successes()) : null,
                cpu > 0 ? round(r.successes() / cpu) : null, w == null ? null : nullable(w.rssMb()),
                w == null ? null : nullable(w.maxRssMb()), w == null ? null : w.threads(), crashed, exitCode,
                w == null ? null : nullable(w.jitCpuSeconds()),
                w == null || seconds <= 0 ? null : nullable(100 * w.jitCpuSeconds() / seconds),
                w == null || w.processes() <= 0 ? null : w.processes());
    }

    private static Double nullable(double v) {
        return Double.isNaN(v) ? null : round(v);
    }

    static double round(double v) {
        return Double.isNaN(v) ? 0 : Math.round(v * 1000.0) / 1000.0;
    }

    /** Each agent's own figures, by name, for summary.json's {@code agents}. */
    static Map<String, RunSummary.Agent> agents(java.util.List<perflab.agents.AgentsDrive.AgentRun> runs) {
        Map<String, RunSummary.Agent> each = new java.util.LinkedHashMap<>();
        for (perflab.agents.AgentsDrive.AgentRun a : runs) {
            DriverResult r = a.result();
            if (r == null) {
                each.put(a.name(), new RunSummary.Agent(a.host(), a.pid(), a.cpus(), a.java(), a.lost(), 0, 0, 0, 0, null,
                        0, null, false, null));
                continue;
            }
            double seconds = r.measuredSeconds();
            each.put(a.name(), new RunSummary.Agent(a.host(), a.pid(), a.cpus(), a.java(), a.lost(), r.requests(),
                    r.successes(), r.errorCount(), round(seconds > 0 ? r.requests() / seconds : 0),
                    LatencySummary.of(r.latency()), round(r.driverCpuSeconds()),
                    r.requests() > 0 ? round(r.driverCpuSeconds() * 1e6 / r.requests()) : null, r.saturated(),
                    r.saturationReason()));
        }
        return each;
    }
}
