package perflab.report;

import perflab.core.result.LatencySummary;
import perflab.core.result.RunSummary;
import perflab.core.result.LoadFigures;
import perflab.core.result.gc.GcAnalysis;

import java.util.Locale;
import java.util.Map;

/**
 * The end-of-run console output: a summary table and, for a workload that asks for it, the block a client-thread
 * harness prints (the CXF harness's "Overall Test Result", per-client throughput with its own meaning) followed
 * by the aggregate figures.
 */
public final class ConsoleSummary {
    private ConsoleSummary() {
    }

    /** The summary table alone. */
    public static String render(RunSummary s) {
        return render(s, false);
    }

    /** @param perClientBlock end with the per-client block ({@link perflab.core.workload.Workload#reportsPerClient}) */
    public static String render(RunSummary s, boolean perClientBlock) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "%n%s / %s / %s — %s model, %d clients%s%s%n",
                s.workload(), s.stack(), s.operation(), s.model(), s.clients(),
                s.targetRate() == null ? "" : String.format(Locale.ROOT, ", target %.1f req/s", s.targetRate()),
                s.complete() ? "" : "  [INCOMPLETE: " + s.endReason() + "]"));
        row(out, "measured", "%.1f s, %d requests, %d ok", s.durationSeconds(), s.requests(), s.successes());
        row(out, "throughput", "%.2f req/s (%.2f per client)", s.throughput(), s.throughputPerClient());
        row(out, "errors", "%s", errors(s.errors()));
        latency(out, s.model().equals("open") ? "latency (intended)" : "latency", s.latencyMs());
        latency(out, "service time", s.serviceTimeMs());
        kinds(out, s.byKind());
        s.loads().forEach((name, load) -> row(out, load.kind() + " " + name, "%s", load.describe()));
        s.checks().forEach((name, check) -> row(out, name, "%s: %s", check.status(), check.line()));
        if (s.server() != null) {
            row(out, "server counters", "%d samples over %.1f s%s, from %s", s.server().samples(), s.server().seconds(),
                    s.server().missed() == 0 ? "" : " (" + s.server().missed() + " missed)", s.server().source());
        }
        s.figures().forEach((name, value) -> row(out, name, "%s", figure(value)));
        RunSummary.Sut sut = s.sut();
        if (sut != null && sut.cpuSeconds() != null) {
            row(out, "sut cpu", "%.2f s (%.1f%% of one core, %.1f%% of the machine; user %.2f s, sys %.2f s), "
                            + "%.1f µs/request", sut.cpuSeconds(), sut.cpuPercent(), nan(sut.cpuPercentOfMachine()),
                    nan(sut.cpuUserSeconds()), nan(sut.cpuSystemSeconds()), nan(sut.cpuMicrosPerRequest()));
        }
        jit(out, "sut jit", sut);
        if (sut != null && sut.rssMb() != null) {
            row(out, "sut memory", "rss %.1f MB (peak %.1f MB), %s threads", sut.rssMb(), nan(sut.maxRssMb()),
                    sut.threads() == null ? "?" : sut.threads().toString());
        }
        s.instances().forEach((name, instance) -> {
            if (instance.cpuSeconds() != null) {
                row(out, name, "pid %d: cpu %.2f s (%.1f%% of one core), rss %.1f MB%s (part of the sut figures)",
                        instance.pid(), instance.cpuSeconds(), instance.cpuPercent(), nan(instance.rssMb()),
                        Boolean.TRUE.equals(instance.crashed()) ? ", ended early" : "");
            }
        });
        s.companions().forEach((name, companion) -> {
            LoadFigures load = s.loads().get(name);
            if (companion.cpuSeconds() != null) {
                // a load source's cost is per unit it made (a SIPp call), not per HTTP request of the driver
                String cost = load == null ? String.format(Locale.ROOT, "%.1f µs/request", nan(companion.cpuMicrosPerRequest()))
                        : load.started() > 0 ? String.format(Locale.ROOT, "%.1f µs/%s",
                        companion.cpuSeconds() * 1e6 / load.started(), load.unit()) : "no " + load.unit() + "s";
                boolean tree = companion.processes() != null && companion.processes() > 1;
                // a tree's memory is its processes' proportional set sizes summed: shared memory once
                row(out, name, "pid %d%s: cpu %.2f s (%.1f%% of one core), %s; %s %.1f MB, %s threads "
                                + "(not in the sut figures)", companion.pid(),
                        tree ? String.format(Locale.ROOT, " and the processes under it, %d in all", companion.processes()) : "",
                        companion.cpuSeconds(), companion.cpuPercent(), cost, tree ? "pss" : "rss",
                        nan(companion.rssMb()), companion.threads() == null ? "?" : companion.threads().toString());
            }
            jit(out, name + " jit", companion);
        });
        RunSummary.Database db = s.database();
        if (db != null && db.cpuMicrosPerRequest() != null) {
            row(out, "database", "%s: %.1f µs/request; sut + database %s", db.process(), db.cpuMicrosPerRequest(),
                    db.sutAndDatabaseCpuMicrosPerRequest() == null ? "unknown"
                            : String.format(Locale.ROOT, "%.1f µs/request (%.1f requests per CPU-second)",
                            db.sutAndDatabaseCpuMicrosPerRequest(), nan(db.requestsPerSutAndDatabaseCpuSecond())));
        }
        if (s.machine() != null && s.machine().cpuPercent() != null) {
            row(out, "machine cpu", "%.1f%% of %d CPUs", s.machine().cpuPercent(), s.machine().cpus());
        }
        RunSummary.Network n = s.network();
        if (n != null && n.iface() != null && n.packetsInPerSec() != null) {
            row(out, "network", "%s: in %.0f pkt/s %.2f MB/s, out %.0f pkt/s %.2f MB/s%s; driver %.0f bytes/request",
                    n.iface(), n.packetsInPerSec(), nan(n.bytesInPerSec()) / 1e6, nan(n.packetsOutPerSec()),
                    nan(n.bytesOutPerSec()) / 1e6, n.loopback() ? " (loopback: both directions each)" : "",
                    nan(n.driverBytesPerRequest()));
        }
        GcAnalysis gc = s.gc();
        if (gc != null) {
            row(out, "sut gc", "%s: %d collections (young %d, mixed %d, full %d, concurrent %d), paused %.1f ms = %.2f%%, "
                            + "max %.2f ms, p99 %.2f ms", gc.collector(), gc.count(), gc.youngCount(), gc.mixedCount(),
                    gc.fullCount(), gc.concurrentCount(), gc.totalPauseMs(), gc.overheadPercent(), gc.maxPauseMs(), gc.p99PauseMs());
            row(out, "sut heap", "live set %s, allocation %s%s%s",
                    gc.liveSetMb() == null ? "-" : String.format(Locale.ROOT, "%.1f MB", gc.liveSetMb()),
                    gc.allocationRateMbPerSec() == null ? "-"
                            : String.format(Locale.ROOT, "%.1f MB/s", gc.allocationRateMbPerSec()),
                    gc.allocatedBytesPerRequest() == null ? ""
                            : String.format(Locale.ROOT, " (%.0f bytes/request)", gc.allocatedBytesPerRequest()),
                    gc.cascadeSeconds() == 0 ? "" : String.format(Locale.ROOT, ", %d GC cascade second(s)",
                            gc.cascadeSeconds()));
        }
        RunSummary.Driver d = s.driver();
        row(out, "driver", "cpu %.2f s (%.1f%%), gc pauses %.1f ms, %d connections opened in the window%s%s", d.cpuSeconds(),
                d.cpuPercent(), d.gcPauseMs(), d.connectionsOpened(),
                d.resent() == 0 ? "" : String.format(Locale.ROOT, ", %d request(s) resent on a new connection (a kept-alive "
                        + "one closed unanswered)", d.resent()),
                d.saturated() ? "  SATURATED: " + d.saturationReason() : "");
        if (s.agents() != null) {
            s.agents().forEach((name, a) -> row(out, "agent " + name, "%s", a.lost() != null ? "LOST: " + a.lost()
                    : String.format(Locale.ROOT, "%d requests, %.2f req/s, p99 %.3f ms, cpu %.2f s (%s µs/request)%s",
                    a.requests(), a.throughput(), a.latencyMs() == null ? Double.NaN : a.latencyMs().p99(), a.cpuSeconds(),
                    a.cpuMicrosPerRequest() == null ? "-" : String.format(Locale.ROOT, "%.1f", a.cpuMicrosPerRequest()),
                    a.saturated() ? "  SATURATED: " + a.saturationReason() : "")));
        }
        if (s.warmup() != null) {
            row(out, "warm-up", "%s", warmup(s.warmup()));
        }
        row(out, "steady", "%s (cv %.3f, change %+.1f%% across %d s, trend %+.2f%%/min)%s", s.steady().steady() ? "yes" : "no",
                s.steady().cv(), s.steady().driftPercent(), s.steady().seconds(), s.steady().trendPercentPerMin(),
                steadinessHint(s));
        if (perClientBlock) {
            out.append(perClientBlock(s));
        }
        return out.toString();
    }

    /** The JIT compiler's CPU in the window, with what it means when the compiler was still busy. */
    private static void jit(StringBuilder out, String label, RunSummary.Sut process) {
        if (process == null || process.jitCpuPercent() == null) {
            return;
        }
        row(out, label, "compiler threads %.2f s (%.1f%% of one core)%s", nan(process.jitCpuSeconds()),
                process.jitCpuPercent(), process.compilingInWindow()
                        ? " — STILL COMPILING: part of the window ran code not yet fully optimised; give a longer --warmup" : "");
    }

    /**
     * How the warm-up ended, as words that follow "the warm-up"; when it ran out, what that means for the figures
     * and what to change.
     */
    public static String warmup(RunSummary.Warmup w) {
        return switch (w.endedBy()) {
            case "steady" -> String.format(Locale.ROOT, "ended after %.0f s: the JIT compilers were quiet and the load "
                    + "steady", w.seconds());
            case "max" -> String.format(Locale.ROOT, "reached its maximum of %.0f s without settling (%s): the figures "
                    + "may be of a system still warming; give --warmup auto:MAX a longer maximum", w.maxSeconds(),
                    w.notWarmBecause() == null ? "no reason recorded" : w.notWarmBecause());
            case "time" -> String.format(Locale.ROOT, "lasted %.0f s, as set (--warmup)", w.seconds());
            case "requests" -> String.format(Locale.ROOT, "lasted %.0f s, by count (--warmup-requests)", w.seconds());
            case "none" -> "was off";
            default -> String.format(Locale.ROOT, "was %s after %.0f s", w.endedBy(), w.seconds());
        };
    }

    /**
     * A fail-over run's kill in one line: how long it disturbed the load and what each part of the window saw
     * (requests failed, the driver's p99, each load source's counts of trouble: SIPp's failed calls and
     * retransmissions).
     *
     * @param trouble the names of the load sources' columns that count trouble ({@code LoadColumn#trouble})
     */
    public static String failover(RunSummary.Failover f, java.util.Set<String> trouble) {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "fail-over: %s killed at %.1f s", f.killed(),
                f.atSecond()));
        if (f.phases() == null) {
            return b.toString();
        }
        b.append(String.format(Locale.ROOT, ", the load disturbed for %.1f s", f.disturbedSeconds()));
        RunSummary.Restart r = f.restart();
        if (r != null && r.disturbedSeconds() != null) {
            b.append(String.format(Locale.ROOT, "; started again at %.1f s (ready in %.1f s), the load disturbed for %.1f s",
                    r.atSecond(), r.readySeconds(), r.disturbedSeconds()));
        }
        b.append(';');
        return phases(b, f.phases(), trouble);
    }

    /** The console's line of a proxy restart ({@code --restart-proxy-at}): when, how long, and its three parts. */
    public static String proxyRestart(RunSummary.ProxyRestart r, java.util.Set<String> trouble) {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "proxy restart: %s at %.1f s, ready in %.1f s",
                String.join(", ", r.processes()), r.atSecond(), r.readySeconds()));
        if (r.phases() == null) {
            return b.toString();
        }
        b.append(String.format(Locale.ROOT, ", the load disturbed for %.1f s;", r.disturbedSeconds()));
        return phases(b, r.phases(), trouble);
    }

    private static String phases(StringBuilder b, Map<String, RunSummary.FailoverPhase> phases,
                                 java.util.Set<String> trouble) {
        String sep = " ";
        for (Map.Entry<String, RunSummary.FailoverPhase> e : phases.entrySet()) {
            RunSummary.FailoverPhase p = e.getValue();
            b.append(sep).append(e.getKey()).append(String.format(Locale.ROOT, " %d failed of %d", p.errors(), p.requests()));
            if (p.latencyP99Ms() != null) {
                b.append(String.format(Locale.ROOT, ", p99 %.1f ms", p.latencyP99Ms()));
            }
            p.loads().forEach((load, sums) -> {
                String line = loadPhase(sums, trouble);
                if (!line.isEmpty()) {
                    b.append(", ").append(load).append(' ').append(line);
                }
            });
            sep = "; ";
        }
        return b.toString();
    }

    /**
     * What an unsteady window most likely means, from what else the run measured, so the user knows what to change.
     * A rising window used to be blamed on the warm-up alone; but with the SUT's compilers quiet in the window (issue
     * 36: 0.0 % of a core after a 97 s warm-up that ended on its steady rule, and +30 % across the window) the code
     * measured did not change, and what moved is the machine under it, most often on a shared one. Empty when steady.
     */
    static String steadinessHint(RunSummary s) {
        RunSummary.Steadiness steady = s.steady();
        if (steady == null || steady.steady() || steady.seconds() < 3) {
            return "";
        }
        Double jit = s.sut() == null ? null : s.sut().jitCpuPercent();
        String quiet = jit != null && jit <= RunSummary.Sut.JIT_QUIET_PERCENT
                ? String.format(Locale.ROOT, " with the SUT's JIT compilers quiet (%.1f%% of a core)", jit) : null;
        String machine = "; a shared machine's own speed moves like this: repeat the run, or pin the SUT and the driver "
                + "apart (--cpus, --driver-cpus)";
        double bound = perflab.core.result.Steadiness.MAX_DRIFT_PERCENT;
        if (steady.driftPercent() > bound) {
            if (quiet != null) {
                return " — throughput rose" + quiet + ", so not a warm-up still under way" + machine;
            }
            return jit != null && s.sut().compilingInWindow()
                    ? String.format(Locale.ROOT, " — throughput still rising, the SUT's JIT compilers at %.1f%% of a core: "
                    + "not warm yet; give a longer --warmup", jit)
                    : " — throughput still rising: most often a SUT not warm yet; give a longer --warmup";
        }
        if (steady.driftPercent() < -bound) {
            return " — throughput falling during the window: look at GC (gc.log) and memory" + (quiet == null ? "" : machine);
        }
        return " — throughput varied a lot from second to second: see timeseries.csv" + (quiet == null ? "" : machine);
    }

    /**
     * A load source's sums over a part of a fail-over window: its counts of trouble above 0 (SIPp's failed calls,
     * ...); empty when it had none.
     */
    static String loadPhase(Map<String, Double> sums, java.util.Set<String> trouble) {
        StringBuilder b = new StringBuilder();
        sums.forEach((column, v) -> {
            if (trouble.contains(column) && v > 0) {
                b.append(b.length() == 0 ? "" : " ").append(figure(v)).append(' ').append(column);
            }
        });
        return b.toString();
    }

    /** The harness's block: throughput per client, the harness's average response time, invocations, running. */
    public static String perClientBlock(RunSummary s) {
        RunSummary.PerClient h = s.perClient();
        return String.format(Locale.ROOT,
                "%n=============Overall Test Result============%n"
                        + "Overall Throughput: %s %.2f (invocations/sec)%n"
                        + "Overall AVG. response time: %.2f (ms)%n"
                        + "%s (invocations), running %.2f (sec)%n"
                        + "============================================%n"
                        + "Aggregate throughput: %.2f (invocations/sec), latency p50 %.3f p90 %.3f p99 %.3f p99.9 %.3f max %.3f (ms)%n",
                s.operation(), h.throughputPerClient(), h.avgResponseTimeMs(), scientific(h.invocations()),
                h.runningSeconds(), s.throughput(), s.latencyMs().p50(), s.latencyMs().p90(), s.latencyMs().p99(),
                s.latencyMs().p999(), s.latencyMs().max());
    }

    /** Java's Double.toString form, as the harness prints invocations (9.53428857E8). */
    static String scientific(long invocations) {
        return Double.toString((double) invocations);
    }

    /** A row per request kind, when the run had more than one (with one, the totals above are that kind's). */
    static void kinds(StringBuilder out, Map<String, RunSummary.Kind> byKind) {
        if (byKind == null || byKind.size() < 2) {
            return;
        }
        int width = Math.max(4, byKind.keySet().stream().mapToInt(String::length).max().orElse(4));
        out.append(String.format(Locale.ROOT, "  %-20s %-" + width + "s %10s %10s %12s %9s %9s %9s%n", "by kind", "kind",
                "requests", "req/s", "errors", "p50 ms", "p99 ms", "max ms"));
        byKind.forEach((kind, k) -> out.append(String.format(Locale.ROOT, "  %-20s %-" + width + "s %10d %10.2f %12s %9.3f %9.3f %9.3f%n",
                "", kind, k.requests(), k.throughput(), errors(k.errors()), k.latencyMs().p50(), k.latencyMs().p99(),
                k.latencyMs().max())));
    }

    private static void latency(StringBuilder out, String label, LatencySummary l) {
        row(out, label, "mean %.3f  p50 %.3f  p90 %.3f  p99 %.3f  p99.9 %.3f  max %.3f ms", l.mean(), l.p50(),
                l.p90(), l.p99(), l.p999(), l.max());
    }

    private static String errors(Map<String, Long> errors) {
        long total = errors.getOrDefault("total", 0L);
        if (total == 0) {
            return "0";
        }
        StringBuilder text = new StringBuilder(Long.toString(total)).append(" (");
        errors.forEach((kind, count) -> {
            if (!kind.equals("total") && count > 0) {
                text.append(kind).append(' ').append(count).append(", ");
            }
        });
        text.setLength(text.length() - 2);
        return text.append(')').toString();
    }

    /**
     * A workload figure on one line: a number as it is (at most 3 decimals), a map as {@code key value, ...} with its
     * {@code source} left out (summary.json and the report have it).
     */
    static String figure(Object value) {
        if (value instanceof Map<?, ?> m) {
            StringBuilder b = new StringBuilder();
            m.forEach((k, v) -> {
                if (!"source".equals(k)) {
                    b.append(b.length() == 0 ? "" : ", ").append(k).append(' ').append(figure(v));
                }
            });
            return m.isEmpty() ? "none" : b.toString();
        }
        if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d)
                    : String.format(Locale.ROOT, "%.3f", d).replaceAll("0+$", "");
        }
        return String.valueOf(value);
    }

    private static double nan(Double v) {
        return v == null ? Double.NaN : v;
    }

    private static void row(StringBuilder out, String label, String format, Object... args) {
        out.append(String.format(Locale.ROOT, "  %-20s ", label)).append(String.format(Locale.ROOT, format, args))
                .append(System.lineSeparator());
    }
}
