package perflab.experiment.run;

import perflab.core.result.RunSummary;
import perflab.core.result.Steadiness;

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
 * being flat means caches, pools and the heap have settled too.
 *
 * <p>In the closed model the throughput must also have stopped climbing (or falling) over the last
 * {@value #TREND_SECONDS} seconds: a slow ramp (+36 %/min, +105 %/min on a Xeon host, issue 36) keeps every one of five
 * seconds within 10 % of their mean, so the spread alone ended such warm-ups at 44-46 s and the windows that followed
 * read {@code steady: no}. The trend is the least-squares line through those seconds, and its change across them is
 * bounded at {@value #MAX_TREND_CHANGE} of their mean, about 15 %/min: half the change that makes a window unsteady
 * ({@link perflab.core.result.Steadiness#MAX_DRIFT_PERCENT}) over the same 20 s, so a warm-up that ends on the bound
 * leaves a 20 s window (the default) that still reads steady. A longer window reads whatever trend remains: at
 * 15 %/min, over 40 s it would reach the 10 % that makes a window unsteady, as it should, since the system still moves. On 2 shared CPUs a lean Jetty SUT's compilers
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
    static final double JIT_QUIET_PERCENT = RunSummary.Sut.JIT_QUIET_PERCENT;
    /** Each second's throughput within this share of the seconds' mean (closed model). */
    static final double THROUGHPUT_SPREAD = 0.10;
    /** Each second's median latency within this share of the seconds' mean (open model)... */
    static final double LATENCY_SPREAD = 0.20;
    /** ...or within this many milliseconds, for sub-millisecond medians whose relative noise is large. */
    static final double LATENCY_SPREAD_FLOOR_MS = 0.1;
    static final int STEADY_SECONDS = 5;
    static final int MIN_SECONDS = 5;
    /**
     * Closed model: the span over which the throughput's trend is judged. Long enough that per-second noise barely
     * tilts the fitted line (3 % noise over 20 s: a change of ±2.2 % one time in three), short enough not to
     * lengthen a warm-up that is already flat: a lean SUT's compilers need 30-60 s here anyway.
     */
    static final double TREND_SECONDS = 20;
    /** Closed model: the fitted line may change by this share of the mean across the trend's span. */
    static final double MAX_TREND_CHANGE = 0.05;

    /**
     * One warm-up second as the run recorder saw it; NaN for what is not measured (a JVM perflab did not start).
     * {@code companionJitPercent} is the busiest compiler among the companion processes.
     */
    record Second(double seconds, double throughput, double p50Ms, double sutJitPercent, double companionJitPercent,
                  double driverJitPercent) {
    }

    private final boolean openModel;
    private final Deque<Second> recent = new ArrayDeque<>();
    /** The seconds of the last {@link #TREND_SECONDS}: {mid-point time, throughput}. */
    private final Deque<double[]> trend = new ArrayDeque<>();
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
        trend.addLast(new double[] {elapsedSeconds - s.seconds() / 2, s.throughput()});
        while (trend.peekFirst()[0] < elapsedSeconds - TREND_SECONDS) {
            trend.removeFirst();
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
        } else if (!openModel) {
            String moving = trend();
            if (moving != null) {
                reasons.add(moving);
            }
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

    /** Why the closed model's throughput still moves over the trend's span, or null when it does not. */
    private String trend() {
        if (elapsedSeconds < TREND_SECONDS) {
            return String.format(Locale.ROOT, "%.0f s of warm-up, fewer than the %.0f s its throughput's trend is judged on",
                    elapsedSeconds, TREND_SECONDS);
        }
        double[] t = new double[trend.size()];
        double[] y = new double[t.length];
        int i = 0;
        for (double[] p : trend) {
            t[i] = p[0];
            y[i++] = p[1];
        }
        double span = t[t.length - 1] - t[0];
        double change = Steadiness.fittedChange(t, y);
        if (Math.abs(change) <= MAX_TREND_CHANGE) {
            return null;
        }
        return String.format(Locale.ROOT, "throughput %s %.0f%% over the last %.0f s (%+.0f%%/min), more than %.0f%%",
                change > 0 ? "climbed" : "fell", 100 * Math.abs(change), span, 100 * change * 60 / span,
                100 * MAX_TREND_CHANGE);
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
