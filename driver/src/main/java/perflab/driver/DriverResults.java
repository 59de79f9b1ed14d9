package perflab.driver;

import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Combines the results of driver processes that loaded the same run side by side. */
public final class DriverResults {
    private DriverResults() {
    }

    /** Nothing measured: a run that ended before any driver process reported. */
    public static DriverResult none(String reason) {
        return new DriverResult(false, reason, 0, 0, 0, 0, KindSum.noErrors(), List.of(), new Histogram(LoopStats.DIGITS),
                new Histogram(LoopStats.DIGITS), new Histogram(LoopStats.DIGITS), new Histogram(LoopStats.DIGITS), 0, 0,
                0, 0, false, null, 0, 0, 0, Map.of());
    }

    /** The same figures, marked incomplete with {@code reason} (a run voided, or whose sums do not add up). */
    public static DriverResult incomplete(DriverResult r, String reason) {
        return with(r, false, reason, 0);
    }

    /** The same figures with their wall-clock times moved by {@code offsetMs} (an agent's clock onto the controller's). */
    public static DriverResult shifted(DriverResult r, long offsetMs) {
        return with(r, r.complete(), r.endReason(), offsetMs);
    }

    private static DriverResult with(DriverResult r, boolean complete, String reason, long offsetMs) {
        return new DriverResult(complete, reason, r.measureStartEpochMs() + offsetMs, r.measureEndEpochMs() + offsetMs,
                r.measuredSeconds(), r.successes(), r.errors(), r.errorSamples(), r.latency(), r.serviceTime(),
                r.failedLatency(), r.lag(), r.warmupRequests(), r.connectionsOpened(), r.driverCpuSeconds(),
                r.driverGcPauseMs(), r.saturated(), r.saturationReason(), r.bytesSent(), r.bytesReceived(), r.resent(), r.byKind());
    }

    /** The same interval with its wall-clock times moved by {@code offsetMs}. */
    public static Interval shifted(Interval i, long offsetMs) {
        return new Interval(i.phase(), i.startEpochMs() + offsetMs, i.endEpochMs() + offsetMs, i.elapsedSeconds(),
                i.successes(), i.errors(), i.latency(), i.serviceTime(), i.failed(), i.lag(), i.bytesSent(),
                i.bytesReceived(), i.byKind());
    }

    /**
     * One second of several driver processes that ran side by side, added exactly: counters summed, histograms
     * added. It starts at the earliest start and lasts as long as the longest of them (the longest elapsed time
     * too): the processes cut their seconds at their own moments, up to a second apart, and a span from the
     * earliest start to the latest end would stretch the second by that skew and understate its rate (400 req/s
     * charted as 356 with the cuts 120 ms apart).
     */
    public static Interval merge(Phase phase, List<Interval> intervals) {
        if (intervals.isEmpty()) {
            throw new IllegalArgumentException("nothing to merge: no intervals");
        }
        FigureSum sum = new FigureSum();
        long start = Long.MAX_VALUE;
        long length = 0;
        double elapsed = 0;
        for (Interval i : intervals) {
            sum.add(i.latency(), i.serviceTime(), i.failed(), i.lag(), i.errors(), i.byKind(), i.successes(), i.bytesSent(),
                    i.bytesReceived());
            start = Math.min(start, i.startEpochMs());
            length = Math.max(length, i.endEpochMs() - i.startEpochMs());
            elapsed = Math.max(elapsed, i.elapsedSeconds());
        }
        return new Interval(phase, start, start + length, elapsed, sum.successes, sum.errors, sum.latency, sum.service,
                sum.failed, sum.lag, sum.sent, sum.received, sum.byKind());
    }

    /**
     * Adds histograms and counters exactly. The processes ran at the same time, so the window spans from the
     * earliest start to the latest end and its length is the longest of theirs (not the sum); CPU and GC are
     * summed; the run is complete only if every process completed, and saturated if any process was.
     */
    public static DriverResult merge(List<DriverResult> results) {
        if (results.isEmpty()) {
            throw new IllegalArgumentException("nothing to merge: no driver results");
        }
        if (results.size() == 1) {
            return results.get(0);
        }
        FigureSum sum = new FigureSum();
        List<String> samples = new ArrayList<>();
        Set<String> reasons = new LinkedHashSet<>();
        List<String> saturation = new ArrayList<>();
        boolean complete = true;
        boolean saturated = false;
        long start = Long.MAX_VALUE;
        long end = Long.MIN_VALUE;
        double seconds = 0;
        long warmup = 0;
        long connections = 0;
        long resent = 0;
        double cpu = 0;
        double gc = 0;
        for (int i = 0; i < results.size(); i++) {
            DriverResult r = results.get(i);
            sum.add(r.latency(), r.serviceTime(), r.failedLatency(), r.lag(), r.errors(), r.byKind(), r.successes(),
                    r.bytesSent(), r.bytesReceived());
            for (String s : r.errorSamples()) {
                if (samples.size() < MeasurementWindow.MAX_ERROR_SAMPLES) {
                    samples.add(s);
                }
            }
            reasons.add(r.endReason());
            complete &= r.complete();
            if (r.saturated()) {
                saturated = true;
                saturation.add("driver " + i + ": " + r.saturationReason());
            }
            start = Math.min(start, r.measureStartEpochMs());
            end = Math.max(end, r.measureEndEpochMs());
            seconds = Math.max(seconds, r.measuredSeconds());
            warmup += r.warmupRequests();
            connections += r.connectionsOpened();
            resent += r.resent();
            cpu += r.driverCpuSeconds();
            gc += r.driverGcPauseMs();
        }
        return new DriverResult(complete, String.join("; ", reasons), start, end, seconds, sum.successes, sum.errors,
                List.copyOf(samples), sum.latency, sum.service, sum.failed, sum.lag, warmup, connections, cpu, gc, saturated,
                saturated ? String.join("; ", saturation) : null, sum.sent, sum.received, resent, sum.byKind());
    }
}
