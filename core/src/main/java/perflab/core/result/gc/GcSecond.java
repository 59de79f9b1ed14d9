package perflab.core.result.gc;

/**
 * GC in one second of the window, for timeseries.csv.
 *
 * @param epochMs     start of the second (epoch ms, a multiple of 1000; uptime ms for uptime-only logs)
 * @param pauseMs     stop-the-world pause time that fell into this second (pauses spanning a boundary are split)
 * @param pauses      pauses that ended in this second
 * @param heapAfterMb heap in use after the last collection that ended in this second, or null
 */
public record GcSecond(long epochMs, double pauseMs, int pauses, Double heapAfterMb) {
}
