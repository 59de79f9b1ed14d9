package perflab.experiment.run;

import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.Histogram;
import perflab.core.result.LatencySummary;
import perflab.core.result.RunSummary;
import perflab.core.load.LoadColumn;
import perflab.core.load.LoadPeriod;
import perflab.report.ReportLatency;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A fail-over run's measured window cut at the kill into three parts, so that what the kill did stands apart from the
 * steady state around it: {@code before}, {@code during} (the disturbance) and {@code after}.
 * <p>
 * The disturbance starts with the driver's second that holds the kill and ends with the last second, within the
 * window, in which the kill left a trace the load can see: a failed request, a load source's period with trouble
 * ({@link perflab.core.load.LoadColumn#trouble}: a failed SIPp call, or a SIPp retransmission, a peer that got no answer in time and
 * sent its request again: a BYE or NOTIFY that went to the dead instance while the proxy still thought it alive), or
 * a driver's second whose p99 was more than twice the p99 of
 * the window before the kill (requests that waited for such a message, and those queued behind them). Just that one
 * second when nothing was seen. A trace of another cause after the kill (a retransmission or a slow second on a
 * loaded CPU) lengthens it too: the figure is an upper bound.
 */
final class FailoverPhases {
    static final String BEFORE = "before";
    static final String DURING = "during";
    static final String AFTER = "after";
    static final String DURING_RESTART = "duringRestart";
    static final String AFTER_RESTART = "afterRestart";
    private static final String MEASURE = "measure";

    /** One measured second of the driver: its span, and the requests answered and failed in it. */
    record DriverSecond(long startEpochMs, long endEpochMs, long successes, long errors) {
    }

    /** The disturbance, in epoch milliseconds: [start, end). */
    record Disturbance(long startEpochMs, long endEpochMs) {
        double seconds() {
            return (endEpochMs - startEpochMs) / 1000.0;
        }
    }

    private FailoverPhases() {
    }

    /**
     * The disturbance the kill at {@code killMs} caused, from the driver's measured seconds and each load source's
     * periods (those of the window only count).
     */
    static Disturbance disturbance(long killMs, long windowStartMs, long windowEndMs, List<DriverSecond> driver,
                                   Map<String, LoadSources.Periods> sources, List<AbstractHistogram> intervals) {
        return disturbance(killMs, killMs, windowStartMs, windowEndMs, driver, sources, intervals);
    }

    /**
     * The disturbance of a fault at {@code killMs} (a kill, or a restart), traces counted up to {@code windowEndMs},
     * a slow second judged against the seconds that ended by {@code calmUntilMs} (for a restart, those before the
     * kill: the steady state before any fault).
     */
    static Disturbance disturbance(long killMs, long calmUntilMs, long windowStartMs, long windowEndMs,
                                   List<DriverSecond> driver, Map<String, LoadSources.Periods> sources,
                                   List<AbstractHistogram> intervals) {
        long start = killMs;
        long end = killMs;
        Histogram before = new Histogram(3);
        before.setAutoResize(true);
        for (AbstractHistogram h : intervals) {
            if (h.getEndTimeStamp() <= calmUntilMs) {
                before.add(h);
            }
        }
        if (before.getTotalCount() > 0) {
            long slow = 2 * before.getValueAtPercentile(99);
            for (AbstractHistogram h : intervals) {
                if (h.getEndTimeStamp() > killMs && h.getEndTimeStamp() <= windowEndMs && h.getTotalCount() > 0
                        && h.getValueAtPercentile(99) > slow) {
                    end = Math.max(end, h.getEndTimeStamp());
                }
            }
        }
        for (DriverSecond s : driver) {
            if (s.startEpochMs() <= killMs && killMs < s.endEpochMs()) {
                start = s.startEpochMs();
                end = Math.max(end, s.endEpochMs());
            }
            if (s.errors() > 0 && s.endEpochMs() > killMs && s.endEpochMs() <= windowEndMs) {
                end = Math.max(end, s.endEpochMs());
            }
        }
        for (LoadSources.Periods periods : sources.values()) {
            for (LoadPeriod p : periods.rows()) {
                long endMs = p.epochMs();
                if (p.troubled(periods.columns()) && endMs > killMs && endMs <= windowEndMs
                        && p.startEpochMicros() >= windowStartMs * 1000) {
                    end = Math.max(end, endMs);
                }
            }
        }
        return new Disturbance(start, end);
    }

    /**
     * {@code killed} with its phases: the driver's seconds, its latency log ({@code latency.hlog}: the intervals
     * tagged {@code measure}) and the load sources' periods, each put in the part that holds it. With a restart, the kill's
     * traces count until the restart, and the restart's own disturbance and the part after it follow.
     */
    static RunSummary.Failover cut(RunSummary.Failover killed, long windowStartMs, long windowEndMs,
                                   List<DriverSecond> driver, Path latencyLog, Map<String, LoadSources.Periods> sources) {
        List<AbstractHistogram> intervals = measuredIntervals(latencyLog);
        RunSummary.Restart restart = killed.restart();
        long killTracesEnd = restart == null ? windowEndMs : restart.epochMs();
        Disturbance d = disturbance(killed.epochMs(), killed.epochMs(), windowStartMs, killTracesEnd, driver, sources,
                intervals);
        Disturbance r = restart == null ? null : disturbance(restart.epochMs(), killed.epochMs(), windowStartMs,
                windowEndMs, driver, sources, intervals);
        List<Disturbance> faults = r == null ? List.of(d) : List.of(d, r);
        Map<String, RunSummary.FailoverPhase> phases = phases(faults, FAILOVER_DURING, FAILOVER_CALM, windowStartMs,
                windowEndMs, driver, intervals, sources);
        RunSummary.Failover cut = killed.withPhases(d.seconds(), phases);
        return r == null ? cut : cut.withRestart(restart.withDisturbance(r.seconds()));
    }

    /**
     * {@code restarted} with its phases ({@code --restart-proxy-at}): {@code before}, {@code during} (the restart's
     * disturbance, judged as a kill's) and {@code after}, the traces counted as {@link #cut} counts a kill's.
     */
    static RunSummary.ProxyRestart cut(RunSummary.ProxyRestart restarted, long windowStartMs, long windowEndMs,
                                       List<DriverSecond> driver, Path latencyLog, Map<String, LoadSources.Periods> sources) {
        List<AbstractHistogram> intervals = measuredIntervals(latencyLog);
        Disturbance d = disturbance(restarted.epochMs(), restarted.epochMs(), windowStartMs, windowEndMs, driver, sources,
                intervals);
        return restarted.withPhases(d.seconds(), phases(List.of(d), new String[] {DURING},
                new String[] {BEFORE, AFTER}, windowStartMs, windowEndMs, driver, intervals, sources));
    }

    private static final String[] FAILOVER_DURING = {DURING, DURING_RESTART};
    private static final String[] FAILOVER_CALM = {BEFORE, AFTER, AFTER_RESTART};

    /**
     * The window in parts around {@code faults} (in time order): a calm part before the first, each disturbance, a calm
     * part after each (up to the next); the driver's seconds, the latency log's intervals and the sources' periods each
     * put in the part that holds it.
     */
    private static Map<String, RunSummary.FailoverPhase> phases(List<Disturbance> faults, String[] during, String[] calm,
                                                                long windowStartMs, long windowEndMs,
                                                                List<DriverSecond> driver,
                                                                List<AbstractHistogram> intervals,
                                                                Map<String, LoadSources.Periods> sources) {
        Map<String, Part> parts = new LinkedHashMap<>();
        parts.put(calm[0], new Part(windowStartMs, faults.get(0).startEpochMs()));
        for (int i = 0; i < faults.size(); i++) {
            Disturbance f = faults.get(i);
            parts.put(during[i], new Part(f.startEpochMs(), f.endEpochMs()));
            long next = i + 1 < faults.size() ? Math.max(f.endEpochMs(), faults.get(i + 1).startEpochMs()) : windowEndMs;
            parts.put(calm[i + 1], new Part(f.endEpochMs(), next));
        }
        for (DriverSecond s : driver) {
            Part p = parts.get(partOf(s.startEpochMs(), s.endEpochMs(), faults, during, calm));
            p.requests += s.successes() + s.errors();
            p.errors += s.errors();
        }
        for (AbstractHistogram h : intervals) {
            parts.get(partOf(h.getStartTimeStamp(), h.getEndTimeStamp(), faults, during, calm)).latency.add(h);
        }
        sources.forEach((load, periods) -> {
            parts.values().forEach(p -> p.source(load));
            for (LoadPeriod s : periods.rows()) {
                if (s.startEpochMicros() < windowStartMs * 1000 || s.epochMs() > windowEndMs) {
                    continue; // the window's figures are made of the periods wholly inside it
                }
                // a period is ~1 s and not aligned with the driver's seconds: it goes where it ended
                parts.get(partOf(s.epochMs() - 1, s.epochMs(), faults, during, calm)).add(load, s, periods.columns());
            }
        });
        Map<String, RunSummary.FailoverPhase> phases = new LinkedHashMap<>();
        parts.forEach((name, p) -> phases.put(name, p.phase(windowStartMs)));
        return phases;
    }

    /**
     * The part a span [startMs, endMs) belongs to: the disturbance it overlaps, else the calm part it lies in (before
     * the first disturbance, between the two, after the last).
     */
    static String partOf(long startMs, long endMs, List<Disturbance> faults) {
        return partOf(startMs, endMs, faults, FAILOVER_DURING, FAILOVER_CALM);
    }

    private static String partOf(long startMs, long endMs, List<Disturbance> faults, String[] during, String[] calm) {
        for (int i = 0; i < faults.size(); i++) {
            Disturbance f = faults.get(i);
            if (endMs > f.startEpochMs() && startMs < f.endEpochMs()) {
                return during[i];
            }
            if (endMs <= f.startEpochMs()) {
                return calm[i];
            }
        }
        return calm[faults.size()];
    }

    /** The log's intervals of the measured window; none when there is no log or it cannot be read. */
    private static List<AbstractHistogram> measuredIntervals(Path latencyLog) {
        if (latencyLog == null) {
            return List.of();
        }
        try {
            return ReportLatency.intervals(latencyLog, MEASURE);
        } catch (IOException e) {
            return List.of(); // the parts keep their counts, without latency
        }
    }

    /** One part's sums as they are gathered. */
    private static final class Part {
        final long fromMs;
        final long toMs;
        final Histogram latency = new Histogram(3);
        long requests;
        long errors;
        /** Per load source, its columns added up over the part. */
        final Map<String, Map<String, Double>> sources = new LinkedHashMap<>();

        Part(long fromMs, long toMs) {
            this.fromMs = fromMs;
            this.toMs = toMs;
            latency.setAutoResize(true);
        }

        /** Every source has its entry in every part, empty when none of its periods ended there. */
        void source(String load) {
            sources.computeIfAbsent(load, k -> new LinkedHashMap<>());
        }

        void add(String load, LoadPeriod s, List<LoadColumn> columns) {
            Map<String, Double> sums = sources.computeIfAbsent(load, k -> new LinkedHashMap<>());
            for (LoadColumn c : columns) {
                Double v = s.values().get(c.name());
                if (v == null || c.adding() == LoadColumn.Adding.NONE) {
                    continue;
                }
                sums.merge(c.name(), v, c.adding() == LoadColumn.Adding.SUM ? Double::sum : Math::max);
            }
        }

        RunSummary.FailoverPhase phase(long windowStartMs) {
            LatencySummary l = latency.getTotalCount() == 0 ? null : LatencySummary.of(latency);
            return new RunSummary.FailoverPhase(seconds(fromMs - windowStartMs), seconds(Math.max(fromMs, toMs) - windowStartMs),
                    requests, errors, l == null ? null : l.p50(), l == null ? null : l.p99(), l == null ? null : l.max(),
                    sources);
        }

        private static double seconds(long ms) {
            return ms / 1000.0;
        }
    }
}
