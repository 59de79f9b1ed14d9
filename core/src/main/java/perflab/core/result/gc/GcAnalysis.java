package perflab.core.result.gc;

import com.fasterxml.jackson.annotation.JsonIgnore;

import java.util.List;

/**
 * GC figures of one measured window of a HotSpot unified GC log; serialised under {@code gc} in summary.json.
 * Sizes are MB of 2^20 bytes (HotSpot's "M").
 *
 * <p>Definitions:
 * <ul>
 * <li>{@code count}: collections (HotSpot GC ids) that started in the window, stop-the-world and concurrent:
 * {@code count = youngCount + mixedCount + fullCount + concurrentCount}.</li>
 * <li>{@code youngCount}: collections of the young generation only: "Pause Young" (Serial, Parallel; G1 Normal,
 * Concurrent Start, Prepare Mixed) and generational ZGC's Minor Collections.</li>
 * <li>{@code mixedCount}: G1's mixed pauses ("Pause Young (Mixed)"): the young generation and some old regions,
 * chosen by the last mark; the routine way G1 reclaims old space, not a full collection.</li>
 * <li>{@code fullCount}: stop-the-world collections of the whole heap: "Pause Full" (any collector; with G1 a sign
 * that its concurrent cycles fell behind) and Shenandoah's degenerated GCs. Until 2026-11-30 this figure also
 * counted G1's mixed pauses.</li>
 * <li>{@code concurrentCount}: concurrent old or whole-heap cycles: G1 concurrent mark cycles (their Remark
 * and Cleanup pauses are "other" pauses), ZGC cycles (single-generation) and Major Collections
 * (generational), Shenandoah cycles. Their concurrent work is not pause time.</li>
 * <li>Pauses ({@code pauseCount}, {@code totalPauseMs}, max, p50, p99) are the stop-the-world pause lines only,
 * counted when they end in the window; for ZGC these are the gc,phases "Pause Mark Start/Mark End/Relocate
 * Start" lines, for Shenandoah the "Pause Init Mark/Final Mark/Init Update Refs/Final Update Refs/..." lines.
 * Time to reach the safepoint is not included (HotSpot does not count it in the pause line either).
 * {@code youngPauseMs}, {@code mixedPauseMs} and {@code fullPauseMs} split the total by the pause's own kind;
 * the rest is "other" pauses.</li>
 * <li>{@code overheadPercent}: totalPauseMs as % of the window's wall time (the window clipped to the log's
 * span: JVM start to last line, or to the moment a running JVM's log was known current — perflab's runs).</li>
 * <li>{@code gcCpuSeconds}: user + system CPU of the "gc,cpu" lines in the window (Serial, Parallel, G1
 * pauses); null when the log has none (ZGC, Shenandoah) — pauses understate those collectors' cost.</li>
 * <li>{@code liveSetMb}: steady-state live set: median heap in use after the old-reclaiming collections in the
 * window (Pause Full, G1 mixed, Shenandoah degenerated and concurrent cycles, ZGC cycles and Major
 * Collections; per collection the lowest "after" figure it logged); when there are none, the minimum heap
 * after a young collection in the second half of the window (an upper bound: old garbage not yet collected
 * is included). Null when the window has no collection with heap figures.</li>
 * <li>{@code allocationRateMbPerSec}: sum over consecutive collections of (heap before this collection −
 * heap after the previous one, if positive), plus for ZGC the allocation it logs during each concurrent
 * cycle, divided by the time from the first to the last such collection in the window. Null for
 * generational ZGC, whose log has no usable figure (its per-cycle "Allocated" includes relocation).</li>
 * <li>{@code allocatedBytesPerRequest}: set by the caller with {@link #withRequests(long)}.</li>
 * <li>{@code cascades}: each second (epoch-aligned) in which the pause time inside the second leaves the
 * application less than {@code cascadeThreshold} of it; {@code cascadeSeconds} is how many.</li>
 * </ul>
 *
 * @param collector "serial", "parallel", "g1", "zgc", "zgc-generational", "shenandoah" (perflab's names), or
 *                  "unknown"
 * @param clock     "wall" when times are wall-clock epoch ms (the time decoration), "uptime" otherwise
 * @param perSecond per-second series for timeseries.csv (not in JSON: summary.json carries the totals)
 */
public record GcAnalysis(
        String collector,
        long count,
        long youngCount,
        long mixedCount,
        long fullCount,
        long concurrentCount,
        long pauseCount,
        double totalPauseMs,
        double youngPauseMs,
        double mixedPauseMs,
        double fullPauseMs,
        double overheadPercent,
        double maxPauseMs,
        double p50PauseMs,
        double p99PauseMs,
        Double gcCpuSeconds,
        Double liveSetMb,
        Double allocationRateMbPerSec,
        Double allocatedBytesPerRequest,
        double windowSeconds,
        String clock,
        double cascadeThreshold,
        int cascadeSeconds,
        List<GcCascade> cascades,
        @JsonIgnore List<GcSecond> perSecond) {

    public static final double DEFAULT_CASCADE_THRESHOLD = 0.5;

    /** Bytes allocated per request: the allocation rate over the window divided by the requests served in it. */
    public Double allocatedBytesPerRequest(long requests) {
        if (allocationRateMbPerSec == null || requests <= 0) {
            return null;
        }
        return allocationRateMbPerSec * windowSeconds * 1024 * 1024 / requests;
    }

    /** This analysis with {@code allocatedBytesPerRequest} set from {@code requests} served in the window. */
    public GcAnalysis withRequests(long requests) {
        return new GcAnalysis(collector, count, youngCount, mixedCount, fullCount, concurrentCount, pauseCount,
                totalPauseMs, youngPauseMs, mixedPauseMs, fullPauseMs, overheadPercent, maxPauseMs, p50PauseMs, p99PauseMs, gcCpuSeconds,
                liveSetMb, allocationRateMbPerSec, allocatedBytesPerRequest(requests), windowSeconds, clock,
                cascadeThreshold, cascadeSeconds, cascades, perSecond);
    }

    /**
     * The GC of a SUT run as several instances, each JVM's log analysed on its own, as one: counts, pause times,
     * GC CPU, live sets and allocation rates add up; the overhead is the instances' total pause over their total
     * window time (the mean of their overheads when the windows are equal); the largest pause is the largest of
     * any; the median and p99 pause are the largest of the instances' (the pause lists are not merged: an upper
     * bound); cascades are every instance's, in time order. The per-second series is summed by second. A figure
     * no instance logged stays null.
     */
    public static GcAnalysis combine(List<GcAnalysis> instances) {
        if (instances.size() == 1) {
            return instances.get(0);
        }
        GcAnalysis first = instances.get(0);
        String collector = instances.stream().allMatch(a -> a.collector.equals(first.collector)) ? first.collector : "mixed";
        long count = 0, young = 0, mixed = 0, full = 0, concurrent = 0, pauses = 0;
        double total = 0, youngMs = 0, mixedMs = 0, fullMs = 0, max = 0, p50 = 0, p99 = 0, windows = 0, window = 0;
        Double cpu = null, live = null, allocation = null;
        int cascadeSeconds = 0;
        List<GcCascade> cascades = new java.util.ArrayList<>();
        java.util.TreeMap<Long, GcSecond> seconds = new java.util.TreeMap<>();
        for (GcAnalysis a : instances) {
            count += a.count;
            young += a.youngCount;
            mixed += a.mixedCount;
            full += a.fullCount;
            concurrent += a.concurrentCount;
            pauses += a.pauseCount;
            total += a.totalPauseMs;
            youngMs += a.youngPauseMs;
            mixedMs += a.mixedPauseMs;
            fullMs += a.fullPauseMs;
            max = Math.max(max, a.maxPauseMs);
            p50 = Math.max(p50, a.p50PauseMs);
            p99 = Math.max(p99, a.p99PauseMs);
            windows += a.windowSeconds;
            window = Math.max(window, a.windowSeconds);
            cpu = add(cpu, a.gcCpuSeconds);
            live = add(live, a.liveSetMb);
            allocation = add(allocation, a.allocationRateMbPerSec);
            cascadeSeconds += a.cascadeSeconds;
            cascades.addAll(a.cascades);
            for (GcSecond s : a.perSecond == null ? List.<GcSecond>of() : a.perSecond) {
                seconds.merge(s.epochMs(), s, GcSecond::plus);
            }
        }
        cascades.sort(java.util.Comparator.comparingLong(GcCascade::epochMs));
        double overhead = windows > 0 ? 100 * total / (windows * 1000) : 0;
        return new GcAnalysis(collector, count, young, mixed, full, concurrent, pauses, total, youngMs, mixedMs, fullMs,
                overhead, max,
                p50, p99, cpu, live, allocation, null, window, first.clock, first.cascadeThreshold, cascadeSeconds,
                List.copyOf(cascades), List.copyOf(seconds.values()));
    }

    private static Double add(Double a, Double b) {
        return a == null ? b : b == null ? a : Double.valueOf(a + b);
    }
}
