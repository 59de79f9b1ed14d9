package perflab.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import perflab.core.result.Json;
import perflab.core.result.RunSummary;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One run directory as the reports read it: run.json (kept as a tree: reports show what is there, whatever
 * its version), summary.json, timeseries.csv; the histogram logs are read on demand.
 *
 * @param summary null when the run ended before writing it (killed): the page says so and shows the rest
 */
public record ReportRun(Path dir, JsonNode run, RunSummary summary, ReportTimeseries timeseries) {

    /**
     * @throws IllegalArgumentException with a one-line message when {@code dir} is not a run directory
     */
    public static ReportRun load(Path dir) throws IOException {
        requireDirectory(dir);
        Path runJson = dir.resolve("run.json");
        Path summaryJson = dir.resolve("summary.json");
        if (!Files.exists(runJson) && !Files.exists(summaryJson)) {
            throw new IllegalArgumentException(dir + " is not a perflab run directory (no run.json or summary.json); "
                    + "give a directory written by perflab run or drive");
        }
        JsonNode run = Files.exists(runJson) ? readTree(runJson) : MissingNode.getInstance();
        RunSummary summary = null;
        if (Files.exists(summaryJson)) {
            try {
                summary = Json.read(summaryJson, RunSummary.class);
            } catch (JsonProcessingException e) {
                throw new IllegalArgumentException(summaryJson + " is not a perflab summary: " + e.getOriginalMessage());
            }
        }
        return new ReportRun(dir, run, summary, ReportTimeseries.read(dir.resolve("timeseries.csv")));
    }

    static void requireDirectory(Path dir) {
        if (!Files.exists(dir)) {
            throw new IllegalArgumentException("no such directory: " + dir);
        }
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException(dir + " is a file; give a perflab result directory");
        }
    }

    static JsonNode readTree(Path file) throws IOException {
        try {
            return Json.MAPPER.readTree(file.toFile());
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(file + " is not valid JSON: " + e.getOriginalMessage());
        }
    }

    public Path latencyLog() {
        return dir.resolve("latency.hlog");
    }

    public Path serviceTimeLog() {
        return dir.resolve("service-time.hlog");
    }

    /** A short name for the run: workload / stack / operation, from the summary or run.json. */
    public String title() {
        if (summary != null) {
            return summary.workload() + " / " + summary.stack() + " / " + summary.operation();
        }
        JsonNode c = run.path("config");
        return c.path("workload").asText("?") + " / " + c.path("stack").asText("?") + " / " + c.path("operation").asText("?");
    }

    /** Text at a path of run.json ("config.load.clients"), or null. */
    public String runText(String path) {
        JsonNode n = run;
        for (String part : path.split("\\.")) {
            n = n.path(part);
        }
        if (n.isMissingNode() || n.isNull()) {
            return null;
        }
        if (n.isArray()) {
            StringBuilder out = new StringBuilder();
            n.forEach(e -> out.append(out.length() == 0 ? "" : " ").append(e.asText()));
            return out.toString();
        }
        if (n.isObject()) {
            return n.size() == 0 ? null : n.toString();
        }
        return n.asText();
    }
}
