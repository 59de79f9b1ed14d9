package perflab.experiment;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;

/**
 * Decides when an automatic warm-up ({@code --warmup auto}) is over: when the JIT compilers of every JVM watched
 * (the SUT, its back end, the driver) have been quiet and the load's own figure has been stable for
 * {@value #STEADY_SECONDS} seconds in a row, and at least {@value #MIN_SECONDS} seconds have passed. The figure is
 * throughput in the closed model (a cold system answers more slowly, so fewer requests complete) and the median
 * latency in the open model (whose throughput is the rate whatever the system's state).
 *
 * <p>Why both: the compilers going quiet means the code measured will not change under the window; the figure
 * being flat means caches, pools and the heap have settled too. On 2 shared CPUs a lean Jetty SUT's compilers
 * settle in 30-60 s; a bigger application takes minutes, so the warm-up has a maximum and says when it hit it.
 */
final class WarmupJudge {
    /**
     * A compiler above this share of one core is still compiling. Far below the 10 % a measured window is flagged at
     * ({@link perflab.core.result.RunSummary.Sut#JIT_BUSY_PERCENT}): CXF pinned to one CPU sat for 20 s on a plateau
     * at a sixth of its warm throughput with its compilers at 2-11 % (C1's profiling code, hot methods still waiting
     * for C2), then compiled at 60-99 % for 10 s and settled at 0-1 %. At 10 % the judge called that plateau warm
     * after 11 s and the window read 7,900 req/s where the warm system did 12,400 (results/full-jdk17-vs-25,
     * issue 15). A warm system's compilers run at 0-1 %.
     */
    static final double JIT_QUIET_PERCENT = 2;
    /** Each second's throughput within this share of the seconds' mean (closed model). */
    static final double THROUGHPUT_SPREAD = 0.10;
    /** Each second's median latency within this share of the seconds' mean (open model)... */
    static final double LATENCY_SPREAD = 0.20;
    /** ...or within this many milliseconds, for sub-millisecond medians whose relative noise is large. */
    static final double LATENCY_SPREAD_FLOOR_MS = 0.1;
    static final int STEADY_SECONDS = 5;
    static final int MIN_SECONDS = 5;

    /**
     * One warm-up second as the run recorder saw it; NaN for what is not measured (a JVM perflab did not start).
     * {@code companionJitPercent} is the busiest compiler among the companion processes.
     */
    record Second(double seconds, double throughput, double p50Ms, double sutJitPercent, double companionJitPercent,
                  double driverJitPercent) {
    }

    private final boolean openModel;
    private final Deque<Second> recent = new ArrayDeque<>();
    private double elapsedSeconds;
    private String lastReason = "not judged yet";

    WarmupJudge(boolean openModel) {
        this.openModel = openModel;
    }

    /** Feeds one warm-up interval; returns true once the system is warm (and keeps returning true). */
    boolean warm(Second s) {
        elapsedSeconds += s.seconds();
        recent.addLast(s);
        while (recent.size() > STEADY_SECONDS) {
            recent.removeFirst();
        }
        lastReason = judge();
        return lastReason == null;
    }

    /** Why the last seconds were not warm yet ("SUT JIT 12% of a core"), or null when they were. */
    String notWarmBecause() {
        return lastReason;
    }

    private String judge() {
        if (recent.size() < STEADY_SECONDS || elapsedSeconds < MIN_SECONDS) {
            return String.format(Locale.ROOT, "%.0f s of warm-up, fewer than %d steady seconds", elapsedSeconds, STEADY_SECONDS);
        }
        List<String> reasons = new ArrayList<>();
        compiling(reasons, "SUT", Second::sutJitPercent);
        compiling(reasons, "companion", Second::companionJitPercent);
        compiling(reasons, "driver", Second::driverJitPercent);
        String unsteady = openModel ? spread("median latency", Second::p50Ms, LATENCY_SPREAD, LATENCY_SPREAD_FLOOR_MS, "ms")
                : spread("throughput", Second::throughput, THROUGHPUT_SPREAD, 0, "req/s");
        if (unsteady != null) {
            reasons.add(unsteady);
        }
        return reasons.isEmpty() ? null : String.join("; ", reasons);
    }

    /** Adds the busiest second of a compiler that was busy in any of the recent seconds. */
    private void compiling(List<String> reasons, String who, java.util.function.ToDoubleFunction<Second> jitPercent) {
        double busiest = recent.stream().mapToDouble(jitPercent).filter(v -> !Double.isNaN(v)).max().orElse(0);
        if (busiest > JIT_QUIET_PERCENT) {
            reasons.add(String.format(Locale.ROOT, "%s JIT compiler at %.0f%% of a core", who, busiest));
        }
    }

    private String spread(String what, java.util.function.ToDoubleFunction<Second> figure, double share, double floor,
                          String unit) {
        double mean = recent.stream().mapToDouble(figure).average().orElse(Double.NaN);
        if (!(mean > 0)) {
            return "no " + what + " to judge (no request succeeded)";
        }
        double allowed = Math.max(share * mean, floor);
        for (Second s : recent) {
            double v = figure.applyAsDouble(s);
            if (!(Math.abs(v - mean) <= allowed)) { // NaN is not steady
                return String.format(Locale.ROOT, "%s %.4g %s, more than %.0f%% from the last %d seconds' mean %.4g",
                        what, v, unit, 100 * share, recent.size(), mean);
            }
        }
        return null;
    }
}
