package perflab.report;

import perflab.core.result.RunSummary;

import java.util.List;
import java.util.Locale;

/**
 * The client-scaling table of the CXF harness study (seed 001): for each number of clients, throughput per
 * client, total throughput, mean and p99 response time — plus errors and whether the run completed, so that
 * a row is never read without knowing it is sound. As CSV and as a Markdown table.
 */
public final class ScalingTable {
    /** One measured point: the swept value and the run's summary (null when the run produced none). */
    public record Row(String value, RunSummary summary) {
    }

    private ScalingTable() {
    }

    public static String csv(String column, List<Row> rows) {
        StringBuilder out = new StringBuilder(column)
                .append(",throughputPerClient,throughput,meanMs,p50Ms,p99Ms,errors,complete,runDirectory\n");
        for (Row r : rows) {
            RunSummary s = r.summary();
            if (s == null) {
                out.append(r.value()).append(",,,,,,,false,\n");
                continue;
            }
            out.append(String.format(Locale.ROOT, "%s,%.2f,%.2f,%.3f,%.3f,%.3f,%d,%s,%s%n", r.value(),
                    s.throughputPerClient(), s.throughput(), s.latencyMs().mean(), s.latencyMs().p50(),
                    s.latencyMs().p99(), s.errors().getOrDefault("total", 0L), s.complete(), r.value()));
        }
        return out.toString();
    }

    public static String markdown(String column, List<Row> rows) {
        StringBuilder out = new StringBuilder();
        out.append("| ").append(column).append(" | throughput per client (req/s) | total throughput (req/s) | mean (ms) | p99 (ms) | errors |\n");
        out.append("|---:|---:|---:|---:|---:|---:|\n");
        for (Row r : rows) {
            RunSummary s = r.summary();
            if (s == null) {
                out.append("| ").append(r.value()).append(" | — | — | — | — | no result |\n");
                continue;
            }
            out.append(String.format(Locale.ROOT, "| %s | %.2f | %.2f | %.3f | %.3f | %d%s |%n", r.value(),
                    s.throughputPerClient(), s.throughput(), s.latencyMs().mean(), s.latencyMs().p99(),
                    s.errors().getOrDefault("total", 0L), s.complete() ? "" : " (incomplete: " + s.endReason() + ")"));
        }
        return out.toString();
    }
}
