package perflab.core.result;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import perflab.core.result.gc.GcAnalysis;

import java.util.Map;

/**
 * summary.json: the figures of one run's measured window. Documented key by key in docs/results.md.
 * CPU figures cover the measured window only.
 */
public record RunSummary(String workload, String stack, String operation, String model, int clients,
                         Double targetRate, boolean complete, String endReason, double durationSeconds,
                         long requests, long successes, Map<String, Long> errors, double throughput,
                         double throughputPerClient, LatencySummary latencyMs, LatencySummary serviceTimeMs,
                         LatencySummary failedLatencyMs, Steadiness steady, Driver driver, Sut sut,
                         Machine machine, Network network, GcAnalysis gc,
                         @JsonAlias("harness") PerClient perClient, Map<String, Sut> processes, Warmup warmup,
                         Map<String, Kind> byKind, Map<String, LoadFigures> loads, Map<String, RunCheck> checks,
                         Database database, ServerWindow server, Map<String, Object> figures, Failover failover,
                         ProxyRestart proxyRestart, Map<String, Agent> agents) {

    /**
     * One agent's own figures in a run driven from agents ({@code --agents}); the run's figures are their merge.
     *
     * @param lost                why the agent was lost (the run is void), or null; a lost agent's figures are zero
     * @param cpuMicrosPerRequest the agent process's CPU per measured request, microseconds
     */
    public record Agent(String host, long pid, int cpus, String java, String lost, long requests, long successes,
                        long errors, double throughput, LatencySummary latencyMs, double cpuSeconds,
                        Double cpuMicrosPerRequest, boolean saturated, String saturationReason) {
    }

    /** A summary with everything but the agents (a run driven by perflab's own process). */
    public RunSummary(String workload, String stack, String operation, String model, int clients,
                      Double targetRate, boolean complete, String endReason, double durationSeconds,
                      long requests, long successes, Map<String, Long> errors, double throughput,
                      double throughputPerClient, LatencySummary latencyMs, LatencySummary serviceTimeMs,
                      LatencySummary failedLatencyMs, Steadiness steady, Driver driver, Sut sut,
                      Machine machine, Network network, GcAnalysis gc, PerClient perClient, Map<String, Sut> processes,
                      Warmup warmup, Map<String, Kind> byKind, Map<String, LoadFigures> loads,
                      Map<String, RunCheck> checks, Database database, ServerWindow server, Map<String, Object> figures,
                      Failover failover, ProxyRestart proxyRestart) {
        this(workload, stack, operation, model, clients, targetRate, complete, endReason, durationSeconds, requests,
                successes, errors, throughput, throughputPerClient, latencyMs, serviceTimeMs, failedLatencyMs, steady,
                driver, sut, machine, network, gc, perClient, processes, warmup, byKind, loads, checks, database, server,
                figures, failover, proxyRestart, null);
    }

    /**
     * A fail-over run's fault ({@code --kill-instance-at}): which SUT instance was killed with SIGKILL, and when, and
     * the measured window cut at it; with {@code --restart-instance-at}, the instance's return too.
     *
     * @param atSecond         seconds into the measured window
     * @param disturbedSeconds how long the kill disturbed the load: from the start of the driver's second that held
     *                         the kill to the end of the last second, within the window (and before a restart), in
     *                         which a request failed or a load source saw trouble (a failed call, a message sent again); null before the
     *                         phases are known
     * @param phases           {@code before}, {@code during} (the disturbance) and {@code after}, and with a restart
     *                         {@code duringRestart} (the restart's disturbance) and {@code afterRestart}: the load's
     *                         figures in each; null before they are known
     * @param restart          the killed instance started again; null: it was not (or the window ended first)
     */
    public record Failover(String killed, double atSecond, long epochMs, Double disturbedSeconds,
                           Map<String, FailoverPhase> phases, Restart restart) {
        public Failover(String killed, double atSecond, long epochMs) {
            this(killed, atSecond, epochMs, null, null, null);
        }

        public Failover withPhases(double disturbed, Map<String, FailoverPhase> cut) {
            return new Failover(killed, atSecond, epochMs, disturbed, cut, restart);
        }

        public Failover withRestart(Restart again) {
            return new Failover(killed, atSecond, epochMs, disturbedSeconds, phases, again);
        }
    }

    /**
     * The proxies in front of the SUT's instances stopped and started again on their ports ({@code
     * --restart-proxy-at}), each as a process of its own ({@code sip-proxy-restart}, ...).
     *
     * @param processes        the new processes' names
     * @param atSecond         when they were stopped, seconds into the measured window
     * @param readySeconds     from the stop of the first to the readiness of the last
     * @param disturbedSeconds how long the restart disturbed the load, judged as a fail-over's kill is; null before
     *                         the phases are known
     * @param phases           {@code before}, {@code during} and {@code after}; null before they are known
     */
    public record ProxyRestart(java.util.List<String> processes, double atSecond, long epochMs, double readySeconds,
                               Double disturbedSeconds, Map<String, FailoverPhase> phases) {
        public ProxyRestart withPhases(double disturbed, Map<String, FailoverPhase> cut) {
            return new ProxyRestart(processes, atSecond, epochMs, readySeconds, disturbed, cut);
        }
    }

    /**
     * The killed instance started again ({@code --restart-instance-at}) as a process of its own.
     *
     * @param process          its name ({@code sut-0-restart})
     * @param atSecond         when it was started, seconds into the measured window
     * @param readySeconds     from its start to its readiness line (its partner's copies received by then)
     * @param disturbedSeconds how long its return disturbed the load, measured as the kill's disturbance is (its
     *                         users' calls handed back, the proxies turning to it); null before the phases are known
     */
    public record Restart(String process, double atSecond, long epochMs, double readySeconds, Double disturbedSeconds) {
        public Restart withDisturbance(double seconds) {
            return new Restart(process, atSecond, epochMs, readySeconds, seconds);
        }
    }

    /**
     * The load in one part of a fail-over run's window, seconds counted from the window's start. The driver's latency
     * is from each request's intended send time, like the window's; a load source's figures are of its periods that
     * ended in the part.
     *
     * @param loads per load source, its period columns added up over the part ({@link perflab.core.load.LoadColumn}:
     *              counts summed, levels at their largest); empty without load sources
     */
    public record FailoverPhase(double fromSecond, double toSecond, long requests, long errors, Double latencyP50Ms,
                                Double latencyP99Ms, Double latencyMaxMs, Map<String, Map<String, Double>> loads) {
        public FailoverPhase {
            loads = loads == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(loads));
        }

        /**
         * Reads either shape: this one, or that of summaries written before load sources were plugins, whose SIPp
         * figures were fields of their own: the calls, failed calls and retransmissions of every SIPp load together
         * become {@code loads.sipp} (callsCreated, failedCalls, retransmissions), each load's largest response-time
         * means {@code loads.<load>} (rtd&lt;rtd&gt;MeanMs), as timeseries-loads.csv names them.
         */
        @com.fasterxml.jackson.annotation.JsonCreator
        static FailoverPhase read(@com.fasterxml.jackson.annotation.JsonProperty("fromSecond") double fromSecond,
                                  @com.fasterxml.jackson.annotation.JsonProperty("toSecond") double toSecond,
                                  @com.fasterxml.jackson.annotation.JsonProperty("requests") long requests,
                                  @com.fasterxml.jackson.annotation.JsonProperty("errors") long errors,
                                  @com.fasterxml.jackson.annotation.JsonProperty("latencyP50Ms") Double p50,
                                  @com.fasterxml.jackson.annotation.JsonProperty("latencyP99Ms") Double p99,
                                  @com.fasterxml.jackson.annotation.JsonProperty("latencyMaxMs") Double max,
                                  @com.fasterxml.jackson.annotation.JsonProperty("loads") Map<String, Map<String, Double>> loads,
                                  @com.fasterxml.jackson.annotation.JsonProperty("sipCalls") Long sipCalls,
                                  @com.fasterxml.jackson.annotation.JsonProperty("sipFailedCalls") Long sipFailed,
                                  @com.fasterxml.jackson.annotation.JsonProperty("sipRetransmissions") Long sipRetransmissions,
                                  @com.fasterxml.jackson.annotation.JsonProperty("sipResponseTimeMaxMs")
                                  Map<String, Map<String, Double>> sipResponseMax) {
            if (loads == null && sipCalls != null) {
                loads = new java.util.LinkedHashMap<>();
                Map<String, Double> all = new java.util.LinkedHashMap<>();
                all.put("callsCreated", sipCalls.doubleValue());
                all.put("failedCalls", sipFailed == null ? 0.0 : sipFailed.doubleValue());
                all.put("retransmissions", sipRetransmissions == null ? 0.0 : sipRetransmissions.doubleValue());
                loads.put("sipp", all);
                if (sipResponseMax != null) {
                    Map<String, Map<String, Double>> byLoad = loads;
                    sipResponseMax.forEach((load, rtds) -> rtds.forEach((rtd, ms) -> byLoad
                            .computeIfAbsent(load, k -> new java.util.LinkedHashMap<>()).put("rtd" + rtd + "MeanMs", ms)));
                }
            }
            return new FailoverPhase(fromSecond, toSecond, requests, errors, p50, p99, max, loads);
        }
    }

    /**
     * @param processes every process perflab started for the run, by name: {@code sut} (the same figures as the
     *                  top-level {@code sut}), or for a SUT run as several instances each of them ({@code sut-0},
     *                  {@code sut-1}; the top-level {@code sut} is their sum), and the workload's companions
     *                  ({@code backend}); empty when the server is not perflab's (drive)
     * @param perClient the closed model seen per client (read as {@code harness} from summaries before it was renamed)
     * @param loads     the load sources' figures in the measured window ({@link LoadFigures}), by name; empty when the
     *                  workload has none (the driver's own are the summary's)
     * @param checks    the workload's checks of the server after the drive ({@link RunCheck}), by name; empty when it
     *                  has none
     * @param database  the companion that is the run's database, when one plays that role; null otherwise (no
     *                  database, one inside the SUT, or one perflab did not start)
     * @param server    the SUT's own counters over the window ({@link perflab.core.workload.Workload#serverCounters}),
     *                  null when the workload declares none or fewer than two samples came
     * @param figures   the workload's own figures of the window ({@link perflab.core.workload.Workload#figures}), in
     *                  its order; empty when it has none
     * @param failover  the instance a fail-over run killed and when; null for any other run
     * @param proxyRestart the proxies restarted mid-window ({@code --restart-proxy-at}); null for any other run
     */
    public RunSummary {
        figures = figures == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(figures));
        processes = processes == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(processes));
        loads = loads == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(loads));
        checks = checks == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(checks));
    }

    /** A summary of a run with no instance killed and no proxy restarted. */
    public RunSummary(String workload, String stack, String operation, String model, int clients,
                      Double targetRate, boolean complete, String endReason, double durationSeconds,
                      long requests, long successes, Map<String, Long> errors, double throughput,
                      double throughputPerClient, LatencySummary latencyMs, LatencySummary serviceTimeMs,
                      LatencySummary failedLatencyMs, Steadiness steady, Driver driver, Sut sut,
                      Machine machine, Network network, GcAnalysis gc, PerClient perClient, Map<String, Sut> processes,
                      Warmup warmup, Map<String, Kind> byKind, Map<String, LoadFigures> loads,
                      Map<String, RunCheck> checks, Database database, ServerWindow server, Map<String, Object> figures) {
        this(workload, stack, operation, model, clients, targetRate, complete, endReason, durationSeconds, requests,
                successes, errors, throughput, throughputPerClient, latencyMs, serviceTimeMs, failedLatencyMs, steady,
                driver, sut, machine, network, gc, perClient, processes, warmup, byKind, loads, checks, database, server,
                figures, null, null);
    }

    /** This summary with the workload's own figures. */
    public RunSummary withFigures(Map<String, Object> figures) {
        return new RunSummary(workload, stack, operation, model, clients, targetRate, complete, endReason,
                durationSeconds, requests, successes, errors, throughput, throughputPerClient, latencyMs, serviceTimeMs,
                failedLatencyMs, steady, driver, sut, machine, network, gc, perClient, processes, warmup, byKind, loads,
                checks, database, server, figures, failover, proxyRestart, agents);
    }

    /** This summary of a run driven from agents, with each agent's own figures. */
    public RunSummary withAgents(Map<String, Agent> each) {
        return new RunSummary(workload, stack, operation, model, clients, targetRate, complete, endReason,
                durationSeconds, requests, successes, errors, throughput, throughputPerClient, latencyMs, serviceTimeMs,
                failedLatencyMs, steady, driver, sut, machine, network, gc, perClient, processes, warmup, byKind, loads,
                checks, database, server, figures, failover, proxyRestart, each);
    }

    /** This summary of a fail-over run: the instance killed and when. */
    public RunSummary withFailover(Failover killed) {
        return new RunSummary(workload, stack, operation, model, clients, targetRate, complete, endReason,
                durationSeconds, requests, successes, errors, throughput, throughputPerClient, latencyMs, serviceTimeMs,
                failedLatencyMs, steady, driver, sut, machine, network, gc, perClient, processes, warmup, byKind, loads,
                checks, database, server, figures, killed, proxyRestart, agents);
    }

    /** This summary of a run whose proxies were restarted mid-window. */
    public RunSummary withProxyRestart(ProxyRestart restarted) {
        return new RunSummary(workload, stack, operation, model, clients, targetRate, complete, endReason,
                durationSeconds, requests, successes, errors, throughput, throughputPerClient, latencyMs, serviceTimeMs,
                failedLatencyMs, steady, driver, sut, machine, network, gc, perClient, processes, warmup, byKind, loads,
                checks, database, server, figures, failover, restarted, agents);
    }

    /** Whether a check after the drive failed: the run fails with it. */
    @JsonIgnore
    public boolean checkFailed() {
        return checks.values().stream().anyMatch(RunCheck::failed);
    }

    /** The companions' figures by name: every process but the SUT and its instances. */
    @JsonIgnore
    public Map<String, Sut> companions() {
        Map<String, Sut> companions = new java.util.LinkedHashMap<>(processes);
        companions.keySet().removeIf(perflab.core.workload.SutInstances::reserved);
        return companions;
    }

    /**
     * The figures of each instance of a SUT run as several ({@code sut-0}, ...; {@code sut} is their sum); empty for
     * a SUT that is one process.
     */
    @JsonIgnore
    public Map<String, Sut> instances() {
        Map<String, Sut> instances = new java.util.LinkedHashMap<>(processes);
        instances.keySet().removeIf(name -> !name.startsWith(perflab.core.workload.SutInstances.SUT + "-")
                || !perflab.core.workload.SutInstances.reserved(name));
        return instances;
    }

    /**
     * How the warm-up before the window ended.
     *
     * @param endedBy        {@code steady} (an automatic warm-up found the system warm), {@code max} (an automatic
     *                       one ran to its maximum: the figures may be of a system still warming), {@code time} (a
     *                       fixed --warmup), {@code requests} (--warmup-requests), {@code none}, or {@code stopped}
     * @param seconds        how long it lasted
     * @param maxSeconds     an automatic warm-up's maximum, else null
     * @param notWarmBecause when it ran to its maximum: what its last seconds still showed ("SUT JIT compiler at 12%
     *                       of a core"), else null
     */
    public record Warmup(String endedBy, double seconds, Double maxSeconds, String notWarmBecause) {
        /** Whether the figures may be of a system still warming up. */
        @JsonIgnore
        public boolean ranOut() {
            return "max".equals(endedBy);
        }
    }

    /**
     * Whether per-second throughput in the measured window was steady.
     *
     * @param cv                 coefficient of variation of per-second throughput
     * @param trendPercentPerMin least-squares slope of per-second throughput, % of the mean per minute
     * @param driftPercent       the fitted line's change across the window, first second to last, % of the mean
     */
    public record Steadiness(boolean steady, double cv, double trendPercentPerMin, double driftPercent, int seconds) {
    }

    /**
     * The driver's health in the measured window.
     *
     * @param lagMs  open model: how late the driver sent requests that had a free connection (null: closed)
     * @param resent idempotent requests sent again on a new connection, as a browser does, because the kept-alive
     *               connection they went out on closed without a byte of answer; each counts once in the figures
     */
    public record Driver(double cpuSeconds, double cpuPercent, boolean saturated, String saturationReason,
                         double gcPauseMs, long connectionsOpened, LatencySummary lagMs, long bytesSent,
                         long bytesReceived, long resent) {
    }

    /**
     * A process's resources in the measured window (docs/metrics.md): the SUT's, or a companion's (per request:
     * per successful request of the run's load); absent when the SUT is not perflab's (drive).
     *
     * @param cpuPercent          user + system CPU, % of one core
     * @param cpuPercentOfMachine the same as % of all the machine's CPUs
     * @param rssMb               mean resident set size over the window's per-second samples, MiB
     * @param maxRssMb            peak resident set size since the SUT started (VmHWM), MiB
     * @param threads             most threads the SUT had in a per-second sample of the window
     * @param jitCpuSeconds       CPU of the JVM's JIT compiler threads in the window (part of cpuSeconds); null
     *                            when unknown
     * @param jitCpuPercent       the same as % of one core: above {@link #JIT_BUSY_PERCENT} the code measured
     *                            was still being compiled
     * @param processes           most processes sampled as this one in a second of the window: 1 for a process
     *                            sampled alone, the whole tree for a companion sampled with its children (a
     *                            database's backends), whose CPU, memory (then proportional set size, shared
     *                            memory counted once) and threads are the tree's sums; null when unknown
     */
    public record Sut(Long pid, Double cpuSeconds, Double cpuUserSeconds, Double cpuSystemSeconds, Double cpuPercent,
                      Double cpuPercentOfMachine, Double cpuMicrosPerRequest, Double requestsPerCpuSecond,
                      Double rssMb, Double maxRssMb, Integer threads, Boolean crashed, Integer exitCode,
                      Double jitCpuSeconds, Double jitCpuPercent, Integer processes) {
        /**
         * A warmed-up JVM's compilers are nearly idle (a fraction of 1% of a core); a window in which they used
         * more than this was not yet in steady state.
         */
        public static final double JIT_BUSY_PERCENT = 10;
        /**
         * At or below this share of one core a JVM's compilers are quiet: the code measured is the code that will
         * run. The automatic warm-up waits for it; a window whose throughput moves with its compilers this quiet
         * moved for another reason.
         */
        public static final double JIT_QUIET_PERCENT = 2;

        /** Whether the JIT compiler was busy in the window (false when unknown). */
        public boolean compilingInWindow() {
            return jitCpuPercent != null && jitCpuPercent > JIT_BUSY_PERCENT;
        }
    }

    /**
     * The run's database, a companion playing that role (trade's PostgreSQL): its figures as under
     * {@code processes.<process>}, and the CPU of the SUT and the database together per request, so that the work a
     * request costs counts the database too.
     *
     * @param process                            the companion's name, its key under {@code processes}
     * @param cpuPercent                         user + system CPU, % of one core (the whole process tree)
     * @param cpuMicrosPerRequest                its CPU µs per successful request
     * @param rssMb                              mean memory over the window's samples, MiB (proportional set size summed
     *                                           over the tree when sampled as one)
     * @param processes                          most processes in a second of the window (a database's backends)
     * @param sutAndDatabaseCpuMicrosPerRequest  SUT and database CPU µs per successful request
     * @param requestsPerSutAndDatabaseCpuSecond successful requests per CPU-second of the SUT and the database
     */
    public record Database(String process, Long pid, Double cpuSeconds, Double cpuPercent, Double cpuPercentOfMachine,
                           Double cpuMicrosPerRequest, Double rssMb, Double maxRssMb, Integer processes,
                           Double sutAndDatabaseCpuMicrosPerRequest, Double requestsPerSutAndDatabaseCpuSecond) {
    }

    /**
     * The whole machine in the measured window.
     *
     * @param cpuPercent busy share of all CPUs (every process, the driver included), %
     * @param cpus       online CPUs
     */
    public record Machine(Double cpuPercent, int cpus) {
    }

    /**
     * Network traffic in the measured window on the interface that carries the run's traffic (every process
     * on the machine counts). On loopback each packet is counted once out and once in.
     *
     * @param driverBytesPerRequest the driver's request + response bytes (HTTP, as on the wire above TCP) per
     *                              completed request
     */
    public record Network(@JsonProperty("interface") String iface, boolean loopback, Double packetsInPerSec,
                          Double packetsOutPerSec, Double bytesInPerSec, Double bytesOutPerSec,
                          Double driverBytesPerRequest) {
    }

    /**
     * The closed model seen from one client, as a harness that runs N client threads reports it (the CXF harness's
     * "Overall Test Result", seed 001): every client runs the whole window, so these are the totals divided by
     * the clients.
     *
     * @param throughputPerClient invocations / sum of the clients' measured seconds
     * @param avgResponseTimeMs   sum of the clients' measured seconds / invocations (the mean time a client
     *                            spends per call, think time and queueing included)
     * @param runningSeconds      clients x measured seconds
     */
    public record PerClient(double throughputPerClient, double avgResponseTimeMs, long invocations,
                          double runningSeconds) {
    }

    /**
     * One request kind's figures in the measured window (summary.json's {@code byKind}); the kinds add up to the
     * run's requests, successes and errors.
     *
     * @param errors     by error kind and {@code total}, as the run's {@code errors}
     * @param throughput successes per second of the window
     * @param latencyMs  the kind's successful requests, measured as the run's {@code latencyMs}
     */
    public record Kind(long requests, long successes, Map<String, Long> errors, double throughput,
                       LatencySummary latencyMs) {
    }
}
