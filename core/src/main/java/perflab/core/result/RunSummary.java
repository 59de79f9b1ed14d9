package perflab.core.result;

import java.util.Map;

/**
 * summary.json: the figures of one run's measured window. Documented key by key in docs/results.md.
 * CPU figures cover the measured window only.
 */
public record RunSummary(String workload, String stack, String operation, String model, int clients,
                         Double targetRate, boolean complete, String endReason, double durationSeconds,
                         long requests, long successes, Map<String, Long> errors, double throughput,
                         double throughputPerClient, LatencySummary latencyMs, LatencySummary serviceTimeMs,
                         LatencySummary failedLatencyMs, Steadiness steady, Driver driver, Sut sut,
                         Harness harness) {

    /**
     * Whether per-second throughput in the measured window was steady.
     *
     * @param cv                 coefficient of variation of per-second throughput
     * @param trendPercentPerMin least-squares slope of per-second throughput, % of the mean per minute
     */
    public record Steadiness(boolean steady, double cv, double trendPercentPerMin, int seconds) {
    }

    /**
     * The driver's health in the measured window.
     *
     * @param lagMs open model: how late the driver sent requests that had a free connection (null: closed)
     */
    public record Driver(double cpuSeconds, double cpuPercent, boolean saturated, String saturationReason,
                         double gcPauseMs, long connectionsOpened, LatencySummary lagMs, long bytesSent,
                         long bytesReceived) {
    }

    /** The SUT's resources in the measured window; null fields when the SUT is not perflab's (drive). */
    public record Sut(Long pid, Double cpuSeconds, Double cpuPercent, Double cpuMicrosPerRequest,
                      Double requestsPerCpuSecond, Boolean crashed, Integer exitCode) {
    }

    /**
     * The CXF performance harness's "Overall Test Result" figures, with the harness's meaning.
     *
     * @param throughputPerClient invocations / sum of the clients' measured seconds
     * @param avgResponseTimeMs   sum of the clients' measured seconds / invocations
     * @param runningSeconds      clients x measured seconds
     */
    public record Harness(double throughputPerClient, double avgResponseTimeMs, long invocations,
                          double runningSeconds) {
    }
}
