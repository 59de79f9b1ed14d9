package perflab.report;

import java.util.Locale;

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
        String progress = Double.isNaN(total)
                ? String.format(Locale.ROOT, "%6.0fs", elapsed)
                : String.format(Locale.ROOT, "%5.0f/%.0fs", elapsed, total);
        String cpu = Double.isNaN(sutCpuPercent) ? "" : String.format(Locale.ROOT, "  sut cpu %5.1f%%", sutCpuPercent);
        String gc = Double.isNaN(gcOverheadPercent) ? "" : String.format(Locale.ROOT, "  gc %5.1f%%", gcOverheadPercent);
        return String.format(Locale.ROOT, "[%-7s] %s  %9.1f req/s  p50 %8.3f ms  p99 %8.3f ms  errors %d%s%s",
                phase, progress, throughput, p50Ms, p99Ms, errors, cpu, gc);
    }
}
