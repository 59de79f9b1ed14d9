package perflab.core.workload;

import java.util.Set;

/**
 * Where the SUT tells its own counters, sampled by perflab once a second over the run ({@link Workload#serverCounters}):
 * a GET path on the SUT's HTTP port that answers a JSON object of numbers (nested objects are flattened, their names
 * joined with '.': {@code {"operations":{"failed":3}}} is {@code operations.failed}; anything not a number is
 * ignored). Every name is a cumulative counter (never goes back while the SUT runs) unless it is a gauge or a
 * histogram bucket:
 *
 * @param path       the path, e.g. {@code /voicemail/stats}
 * @param gauges     names that are gauges (a level now: live sessions); a name ending in {@code *} is a prefix
 * @param histograms latency histograms as counters: a histogram {@code H} is the counters {@code H.le.<µs>}, each the
 *                   cumulative count of values whose bucket's inclusive upper bound is that many microseconds (one
 *                   counter per bucket, not summed across buckets; an absent bucket has counted nothing). perflab
 *                   differences them over a window and reads percentiles off the buckets
 */
public record ServerCounters(String path, Set<String> gauges, Set<String> histograms) {
    public ServerCounters {
        if (path == null || !path.startsWith("/")) {
            throw new IllegalArgumentException("a server counters path starts with '/': " + path);
        }
        gauges = gauges == null ? Set.of() : Set.copyOf(gauges);
        histograms = histograms == null ? Set.of() : Set.copyOf(histograms);
    }

    /** The infix of a histogram's bucket counters: {@code H.le.<µs>}. */
    public static final String BUCKET = ".le.";

    /** Whether {@code name} is a gauge. */
    public boolean isGauge(String name) {
        for (String g : gauges) {
            if (g.endsWith("*") ? name.startsWith(g.substring(0, g.length() - 1)) : name.equals(g)) {
                return true;
            }
        }
        return false;
    }

    /** The histogram whose bucket {@code name} is, or null. */
    public String histogramOf(String name) {
        int at = name.lastIndexOf(BUCKET);
        if (at < 0) {
            return null;
        }
        String h = name.substring(0, at);
        return histograms.contains(h) ? h : null;
    }
}
