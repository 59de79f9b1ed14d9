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
    /**
     * This second and another JVM's same second as one (the instances of a SUT): pauses add up, and so do the heaps
     * after GC; a heap neither knows stays null.
     */
    public GcSecond plus(GcSecond other) {
        Double heap = heapAfterMb == null ? other.heapAfterMb
                : other.heapAfterMb == null ? heapAfterMb : Double.valueOf(heapAfterMb + other.heapAfterMb);
        return new GcSecond(epochMs, pauseMs + other.pauseMs, pauses + other.pauses, heap);
    }
}
