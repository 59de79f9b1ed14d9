package perflab.core.workload;

import perflab.core.result.RunSummary;

import java.util.Map;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * How a capacity search ({@code perflab tune --search}) reads one trial's summary: the rate the system really
 * carried, in the unit of {@code --rate}; the latency that must stay under the goal; and the failures, of which
 * there must be none. For most workloads these are the driver's throughput, p99 and errors; a workload whose
 * {@code --rate} counts something other than requests (new users per second, say) says what instead.
 *
 * @param rateUnit      the unit of {@code --rate} and of {@code achieved}, e.g. "requests/s"
 * @param latencyName   what {@code latencyMs} is, in words, e.g. "p95 NOTIFY-to-200"
 * @param defaultGoalMs the latency goal when the search gives none; null: the search must give one, or none applies
 * @param achieved      the rate carried in the measured window; null when it cannot be read
 * @param latencyMs     the latency judged against the goal; null when it was not measured
 * @param failures      what failed in the window (errors, failed calls); must be zero for a rate to pass
 */
public record CapacityMeasure(String rateUnit, String latencyName, Double defaultGoalMs,
                              Function<RunSummary, Double> achieved, Function<RunSummary, Double> latencyMs,
                              ToLongFunction<RunSummary> failures) {

    /** The driver's own view: throughput in requests/s, its p99, its errors. */
    public static final CapacityMeasure DRIVER = new CapacityMeasure("requests/s", "p99 latency", null,
            RunSummary::throughput, s -> s.latencyMs() == null ? null : s.latencyMs().p99(), CapacityMeasure::driverErrors);

    /** Every error the driver counted in the window (connect, timeout, HTTP status, validation ...). */
    public static long driverErrors(RunSummary s) {
        return s.errors() == null ? 0 : s.errors().getOrDefault("total", 0L);
    }

    /** A number in the summary's workload figures, e.g. {@code figure(s, "notifyTo200Ms", "p95")}; null when absent. */
    public static Double figure(RunSummary s, String... path) {
        Object node = s.figures();
        for (String key : path) {
            if (!(node instanceof Map<?, ?> m)) {
                return null;
            }
            node = m.get(key);
        }
        return node instanceof Number n ? n.doubleValue() : null;
    }
}
