package perflab.core.result;

import com.fasterxml.jackson.annotation.JsonIgnore;
import perflab.core.workload.ServerCounters;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * summary.json's {@code server}: the SUT's own counters ({@link ServerCounters}) over the measured window, from the
 * samples perflab took once a second. The window runs from the sample taken at the warm-up's last tick (the window's
 * start, within the time an answer takes; the first measured sample when that one was missed) to the sample taken at
 * the last measured tick; {@code seconds} is the time between those two samples, so rates are exact for the counts
 * they divide. Pure arithmetic: no clocks, no I/O.
 *
 * @param source     the URL sampled
 * @param samples    samples answered in the window, both ends included (a missed second is left out, not guessed)
 * @param missed     ticks of the measured window whose sample did not come (no answer, not JSON, or still waiting)
 * @param seconds    time between the window's first and last sample
 * @param counters   every cumulative counter: its increase over the window and that per second
 * @param gauges     every gauge: mean and largest of the samples in the window, and its value at the window's end
 * @param latencies  every declared histogram: its values in the window (bucket counts differenced)
 */
public record ServerWindow(String source, int samples, int missed, double seconds, Map<String, Counter> counters,
                           Map<String, Gauge> gauges, Map<String, Latency> latencies) {

    /** A counter's increase over the window, and per second of it. */
    public record Counter(double delta, double perSecond) {
    }

    /** A gauge's mean and largest sample in the window, and its last. */
    public record Gauge(double mean, double max, double last) {
    }

    /**
     * A latency histogram over the window: how many values, and percentiles as the inclusive upper bound of the
     * bucket that holds the value of that rank (so never below the true value, above it by at most the bucket's
     * width). Null percentiles when the window counted nothing.
     */
    public record Latency(long count, Double p50Ms, Double p90Ms, Double p95Ms, Double p99Ms, Double maxMs) {
    }

    /**
     * One sample: when it was taken (the middle of the request's round trip), the phase of the tick that asked for
     * it ({@code warmup}, {@code measure}), and every number the SUT answered, flattened.
     */
    public record Sample(long epochMs, String phase, Map<String, Double> values) {
    }

    /** The counters' window over {@code samples} (in the order taken); null when the window has fewer than two. */
    public static ServerWindow of(ServerCounters decl, String source, List<Sample> samples, int missed) {
        return ofInstances(decl, source, List.of(samples), missed);
    }

    /**
     * The counters' window of a SUT run as several instances, each sampled on its own: counters, gauges and histogram
     * buckets add up over the instances (a counter's rate is the sum of each instance's over its own span; a gauge's
     * largest is the sum of the largest, an upper bound), {@code samples} counts every instance's, {@code seconds} is
     * the longest span. An instance with fewer than two samples in the window (one killed before it) adds nothing;
     * null when none has two.
     */
    public static ServerWindow ofInstances(ServerCounters decl, String source, List<List<Sample>> instances, int missed) {
        List<Span> spans = new ArrayList<>();
        for (List<Sample> samples : instances) {
            Span span = Span.of(samples);
            if (span != null) {
                spans.add(span);
            }
        }
        if (spans.isEmpty()) {
            return null;
        }
        Map<String, Counter> counters = new TreeMap<>();
        Map<String, Gauge> gauges = new TreeMap<>();
        Map<String, Latency> latencies = new TreeMap<>();
        Map<String, double[]> counterSums = new TreeMap<>();
        Map<String, double[]> gaugeSums = new TreeMap<>();
        int samples = 0;
        double seconds = 0;
        for (Span span : spans) {
            samples += span.window().size();
            seconds = Math.max(seconds, span.seconds());
            for (String name : span.last().values().keySet()) {
                if (decl.histogramOf(name) != null) {
                    continue;
                }
                if (decl.isGauge(name)) {
                    double sum = 0;
                    double max = Double.NEGATIVE_INFINITY;
                    int n = 0;
                    for (Sample s : span.own()) {
                        Double v = s.values().get(name);
                        if (v != null) {
                            sum += v;
                            max = Math.max(max, v);
                            n++;
                        }
                    }
                    double[] g = gaugeSums.computeIfAbsent(name, k -> new double[3]);
                    g[0] += sum / n;
                    g[1] += max;
                    g[2] += span.last().values().get(name);
                } else {
                    double delta = span.last().values().get(name) - span.first().values().getOrDefault(name, 0.0);
                    double[] c = counterSums.computeIfAbsent(name, k -> new double[2]);
                    c[0] += delta;
                    c[1] += span.seconds() > 0 ? delta / span.seconds() : 0;
                }
            }
        }
        counterSums.forEach((name, c) -> counters.put(name, new Counter(c[0], round(c[1]))));
        gaugeSums.forEach((name, g) -> gauges.put(name, new Gauge(round(g[0]), g[1], g[2])));
        for (String h : decl.histograms()) {
            TreeMap<Long, Long> buckets = new TreeMap<>();
            spans.forEach(span -> add(buckets, span.first().values(), span.last().values(), h + ServerCounters.BUCKET));
            latencies.put(h, latency(buckets));
        }
        return new ServerWindow(source, samples, missed, round(seconds), counters, gauges, latencies);
    }

    /**
     * One instance's samples in the window: the first (at the warm-up's last tick, or the first measured when that
     * one was missed), the last measured, all between, and those that are the window's own (without the warm-up's).
     */
    private record Span(Sample first, Sample last, List<Sample> window, List<Sample> own) {
        static Span of(List<Sample> samples) {
            int start = -1;
            int end = -1;
            for (int i = 0; i < samples.size(); i++) {
                String phase = samples.get(i).phase();
                if ("warmup".equals(phase)) {
                    start = i;
                } else if ("measure".equals(phase)) {
                    if (start < 0) {
                        start = i;
                    }
                    end = i;
                }
            }
            if (start < 0 || end <= start) {
                return null;
            }
            List<Sample> window = samples.subList(start, end + 1);
            // the window's own samples: the one at its start belongs to the warm-up when there is one
            List<Sample> own = window.subList("warmup".equals(window.get(0).phase()) ? 1 : 0, window.size());
            return new Span(window.get(0), window.get(window.size() - 1), window, own);
        }

        double seconds() {
            return (last.epochMs() - first.epochMs()) / 1000.0;
        }
    }

    /**
     * A histogram between two samples: each bucket's count is the later sample's less the earlier's (a bucket absent
     * from the earlier one had counted nothing); the value of rank ceil(p × count) is the upper bound of the bucket
     * where the running count reaches it.
     */
    public static Latency latency(Map<String, Double> from, Map<String, Double> to, String... histograms) {
        TreeMap<Long, Long> buckets = new TreeMap<>();
        for (String histogram : histograms) {
            add(buckets, from, to, histogram + ServerCounters.BUCKET);
        }
        return latency(buckets);
    }

    private static void add(TreeMap<Long, Long> buckets, Map<String, Double> from, Map<String, Double> to, String prefix) {
        to.forEach((name, value) -> {
            if (name.startsWith(prefix)) {
                long upperUs;
                try {
                    upperUs = Long.parseLong(name.substring(prefix.length()));
                } catch (NumberFormatException e) {
                    return; // not a bucket of this histogram
                }
                long n = Math.round(value - from.getOrDefault(name, 0.0));
                if (n > 0) {
                    buckets.merge(upperUs, n, Long::sum);
                }
            }
        });
    }

    /** Percentiles of bucket counts by inclusive upper bound in µs. */
    static Latency latency(TreeMap<Long, Long> buckets) {
        long count = buckets.values().stream().mapToLong(Long::longValue).sum();
        if (count == 0) {
            return new Latency(0, null, null, null, null, null);
        }
        List<long[]> cumulative = new ArrayList<>();
        long running = 0;
        for (Map.Entry<Long, Long> e : buckets.entrySet()) {
            running += e.getValue();
            cumulative.add(new long[] {e.getKey(), running});
        }
        return new Latency(count, at(cumulative, count, 50), at(cumulative, count, 90), at(cumulative, count, 95),
                at(cumulative, count, 99), buckets.lastKey() / 1000.0);
    }

    private static double at(List<long[]> cumulative, long count, double percentile) {
        long rank = Math.max(1, (long) Math.ceil(percentile / 100.0 * count));
        for (long[] b : cumulative) {
            if (b[1] >= rank) {
                return b[0] / 1000.0;
            }
        }
        return cumulative.get(cumulative.size() - 1)[0] / 1000.0;
    }

    /** A counter's increase over the window, 0 when the SUT never had it. */
    @JsonIgnore
    public double delta(String name) {
        Counter c = counters.get(name);
        return c == null ? 0 : c.delta();
    }

    /** The increases of every counter whose name starts with {@code prefix}, by the rest of the name. */
    @JsonIgnore
    public Map<String, Double> deltas(String prefix) {
        Map<String, Double> out = new TreeMap<>();
        counters.forEach((name, c) -> {
            if (name.startsWith(prefix)) {
                out.put(name.substring(prefix.length()), c.delta());
            }
        });
        return out;
    }

    private static double round(double v) {
        return Double.isNaN(v) || Double.isInfinite(v) ? 0 : Math.round(v * 1000.0) / 1000.0;
    }
}
