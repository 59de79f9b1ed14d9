package perflab.driver;

import org.HdrHistogram.Histogram;
import perflab.core.traffic.ErrorKind;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
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
                0, 0, false, null, 0, 0, Map.of());
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
                r.driverGcPauseMs(), r.saturated(), r.saturationReason(), r.bytesSent(), r.bytesReceived(), r.byKind());
    }

    /** The same interval with its wall-clock times moved by {@code offsetMs}. */
    public static Interval shifted(Interval i, long offsetMs) {
        return new Interval(i.phase(), i.startEpochMs() + offsetMs, i.endEpochMs() + offsetMs, i.elapsedSeconds(),
                i.successes(), i.errors(), i.latency(), i.serviceTime(), i.failed(), i.lag(), i.bytesSent(),
                i.bytesReceived(), i.byKind());
    }

    /**
     * One second of several driver processes that ran side by side, added exactly: counters summed, histograms
     * added, spanning from the earliest start to the latest end (the longest elapsed time).
     */
    public static Interval merge(Phase phase, List<Interval> intervals) {
        if (intervals.isEmpty()) {
            throw new IllegalArgumentException("nothing to merge: no intervals");
        }
        Histogram latency = new Histogram(LoopStats.DIGITS);
        Histogram service = new Histogram(LoopStats.DIGITS);
        Histogram failed = new Histogram(LoopStats.DIGITS);
        Histogram lag = new Histogram(LoopStats.DIGITS);
        Map<ErrorKind, Long> errors = KindSum.noErrors();
        KindSum kinds = new KindSum();
        long start = Long.MAX_VALUE;
        long end = Long.MIN_VALUE;
        double elapsed = 0;
        long successes = 0;
        long sent = 0;
        long received = 0;
        for (Interval i : intervals) {
            latency.add(i.latency());
            service.add(i.serviceTime());
            failed.add(i.failed());
            lag.add(i.lag());
            i.errors().forEach((k, v) -> errors.merge(k, v, Long::sum));
            kinds.add(i.byKind());
            start = Math.min(start, i.startEpochMs());
            end = Math.max(end, i.endEpochMs());
            elapsed = Math.max(elapsed, i.elapsedSeconds());
            successes += i.successes();
            sent += i.bytesSent();
            received += i.bytesReceived();
        }
        return new Interval(phase, start, end, elapsed, successes, errors, latency, service, failed, lag, sent, received,
                kinds.sum());
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
        Histogram latency = new Histogram(LoopStats.DIGITS);
        Histogram service = new Histogram(LoopStats.DIGITS);
        Histogram failed = new Histogram(LoopStats.DIGITS);
        Histogram lag = new Histogram(LoopStats.DIGITS);
        Map<ErrorKind, Long> errors = KindSum.noErrors();
        KindSum kinds = new KindSum();
        List<String> samples = new ArrayList<>();
        Set<String> reasons = new LinkedHashSet<>();
        List<String> saturation = new ArrayList<>();
        boolean complete = true;
        boolean saturated = false;
        long start = Long.MAX_VALUE;
        long end = Long.MIN_VALUE;
        double seconds = 0;
        long successes = 0;
        long warmup = 0;
        long connections = 0;
        double cpu = 0;
        double gc = 0;
        long sent = 0;
        long received = 0;
        for (int i = 0; i < results.size(); i++) {
            DriverResult r = results.get(i);
            latency.add(r.latency());
            service.add(r.serviceTime());
            failed.add(r.failedLatency());
            lag.add(r.lag());
            r.errors().forEach((k, v) -> errors.merge(k, v, Long::sum));
            kinds.add(r.byKind());
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
            successes += r.successes();
            warmup += r.warmupRequests();
            connections += r.connectionsOpened();
            cpu += r.driverCpuSeconds();
            gc += r.driverGcPauseMs();
            sent += r.bytesSent();
            received += r.bytesReceived();
        }
        Map<String, KindFigures> byKind = kinds.sum();
        return new DriverResult(complete, String.join("; ", reasons), start, end, seconds, successes, errors,
                List.copyOf(samples), latency, service, failed, lag, warmup, connections, cpu, gc, saturated,
                saturated ? String.join("; ", saturation) : null, sent, received, byKind);
    }
}
