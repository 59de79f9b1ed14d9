package perflab.report;

import perflab.core.result.Decimals;

/** The one console line a second that shows a run in progress. */
public final class LiveLine {
    private LiveLine() {
    }

    /**
     * @param total seconds the phase will last, or NaN when the phase ends on a request count
     * @param sutCpuPercent NaN when unknown (a target perflab did not start)
     * @param gcOverheadPercent the SUT's GC pause time in the last whole second, % of it; NaN when unknown
     */
    public static String format(String phase, double elapsed, double total, double throughput, double p50Ms,
                                double p99Ms, long errors, double sutCpuPercent, double gcOverheadPercent) {
        // without String.format, as the run's other once-a-second lines: see Decimals
        String progress = Double.isNaN(total)
                ? Decimals.padded(elapsed, 0, 6) + "s"
                : Decimals.padded(elapsed, 0, 5) + "/" + Decimals.fixed(total, 0) + "s";
        String cpu = Double.isNaN(sutCpuPercent) ? "" : "  sut cpu " + Decimals.padded(sutCpuPercent, 1, 5) + "%";
        String gc = Double.isNaN(gcOverheadPercent) ? "" : "  gc " + Decimals.padded(gcOverheadPercent, 1, 5) + "%";
        return "[" + phase + " ".repeat(Math.max(0, 7 - phase.length())) + "] " + progress + "  "
                + Decimals.padded(throughput, 1, 9) + " req/s  p50 " + Decimals.padded(p50Ms, 3, 8) + " ms  p99 "
                + Decimals.padded(p99Ms, 3, 8) + " ms  errors " + errors + cpu + gc;
    }
}
