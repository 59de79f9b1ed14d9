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
        Map<ErrorKind, Long> errors = new EnumMap<>(ErrorKind.class);
        for (ErrorKind k : ErrorKind.values()) {
            errors.put(k, 0L);
        }
        Map<String, Histogram> kindLatency = new LinkedHashMap<>();
        Map<String, Long> kindSuccesses = new LinkedHashMap<>();
        Map<String, Map<ErrorKind, Long>> kindErrors = new LinkedHashMap<>();
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
            r.byKind().forEach((k, f) -> {
                kindLatency.computeIfAbsent(k, x -> new Histogram(LoopStats.DIGITS)).add(f.latency());
                kindSuccesses.merge(k, f.successes(), Long::sum);
                Map<ErrorKind, Long> e = kindErrors.computeIfAbsent(k, x -> new EnumMap<>(ErrorKind.class));
                f.errors().forEach((ek, v) -> e.merge(ek, v, Long::sum));
            });
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
        Map<String, KindFigures> byKind = new LinkedHashMap<>();
        kindLatency.forEach((k, h) -> byKind.put(k, new KindFigures(kindSuccesses.get(k), kindErrors.get(k), h)));
        return new DriverResult(complete, String.join("; ", reasons), start, end, seconds, successes, errors,
                List.copyOf(samples), latency, service, failed, lag, warmup, connections, cpu, gc, saturated,
                saturated ? String.join("; ", saturation) : null, sent, received, byKind);
    }
}
