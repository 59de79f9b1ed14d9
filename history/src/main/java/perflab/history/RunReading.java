package perflab.history;

import com.fasterxml.jackson.databind.JsonNode;
import perflab.core.result.Json;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * A run directory read for the history: what the run was from run.json, its figures from summary.json. Files of any
 * perflab version are read as trees, so that summaries written before a field existed are recorded with what they
 * have.
 */
public final class RunReading {
    public static final String MANIFEST = "run.json";
    public static final String SUMMARY = "summary.json";

    private RunReading() {
    }

    /** Whether {@code dir} holds a run (its run.json). */
    public static boolean isRun(Path dir) {
        return Files.isRegularFile(dir.resolve(MANIFEST));
    }

    /**
     * The run in {@code dir}.
     *
     * @throws IOException when run.json is missing or unreadable; a missing or unreadable summary.json makes a
     *                     {@code failed} run without figures
     */
    public static RecordedRun read(Path dir) throws IOException {
        Path manifestFile = dir.resolve(MANIFEST);
        if (!Files.isRegularFile(manifestFile)) {
            throw new IOException(dir + " is not a run's directory (it has no " + MANIFEST + ")");
        }
        JsonNode manifest = Json.MAPPER.readTree(manifestFile.toFile());
        JsonNode summary = null;
        if (Files.isRegularFile(dir.resolve(SUMMARY))) {
            try {
                summary = Json.MAPPER.readTree(dir.resolve(SUMMARY).toFile());
            } catch (IOException e) {
                summary = null; // a summary cut short by a crash: the run is recorded as failed, without figures
            }
        }
        JsonNode config = manifest.path("config");
        if (text(config, "workload") == null) {
            throw new IOException(manifestFile + " names no workload: not a run perflab wrote");
        }
        // a run.json from before startedAt was written: its file's time is the nearest there is
        String started = text(manifest, "startedAt") != null ? text(manifest, "startedAt")
                : Files.getLastModifiedTime(manifestFile).toInstant().toString();
        JsonNode load = config.path("load");
        JsonNode recording = config.path("recording");
        String status = summary == null ? RecordedRun.FAILED
                : summary.path("complete").asBoolean(false) ? RecordedRun.COMPLETE : RecordedRun.INCOMPLETE;
        double rate = load.path("rate").asDouble(0);
        JsonNode env = manifest.path("environment");
        JsonNode jvm = manifest.path("effectiveJvm");
        return new RecordedRun(dir.toAbsolutePath().normalize().toString(), started,
                text(manifest, "endedAt"), text(config, "workload"), text(config, "stack"), text(config, "operation"),
                rate > 0 ? "open" : "closed", load.has("clients") ? load.path("clients").asInt() : null,
                rate > 0 ? rate : null, summary == null ? null : RunFigure.number(summary, "durationSeconds").orElse(null),
                status, summary == null ? null : text(summary, "endReason"), text(recording, "label"),
                text(recording, "experiment"), text(env, "perflabRevision"), text(env, "hostname"),
                env.has("cores") ? env.path("cores").asInt() : null, text(jvm, "javaVersion"), text(jvm, "collector"),
                ConfigurationKey.of(manifest), describe(config, jvm),
                Json.MAPPER.writeValueAsString(ConfigurationKey.configuration(manifest)),
                summary == null ? List.of() : RunFigure.of(summary));
    }

    /**
     * The configuration in one line: {@code trade lean standard, 50 clients, heap 1g, g1, data-access=jdbc}. The key
     * is what tells configurations apart; this is for a person reading a list.
     */
    static String describe(JsonNode config, JsonNode jvm) {
        List<String> parts = new ArrayList<>();
        parts.add(String.join(" ", nonBlank(text(config, "workload"), text(config, "stack"), text(config, "operation"))));
        JsonNode load = config.path("load");
        double rate = load.path("rate").asDouble(0);
        parts.add(rate > 0 ? trim(rate) + " req/s" : load.path("clients").asInt() + " clients");
        JsonNode sut = config.path("sut");
        if (text(sut, "heap") != null) {
            parts.add("heap " + text(sut, "heap"));
        }
        String gc = text(sut, "gc") != null ? text(sut, "gc") : text(jvm, "collector");
        if (gc != null) {
            parts.add(gc);
        }
        if (text(sut, "cpus") != null) {
            parts.add("cpus " + text(sut, "cpus"));
        }
        if (sut.path("instances").asInt(1) > 1) {
            parts.add(sut.path("instances").asInt() + " instances");
        }
        for (JsonNode settings : List.of(sut.path("settings"), load.path("extra"))) {
            for (Iterator<Map.Entry<String, JsonNode>> it = settings.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                parts.add(e.getKey() + "=" + e.getValue().asText());
            }
        }
        if (text(config, "target") != null) {
            parts.add("target " + text(config, "target"));
        }
        return String.join(", ", parts);
    }

    private static List<String> nonBlank(String... words) {
        List<String> out = new ArrayList<>();
        for (String w : words) {
            if (w != null && !w.isBlank()) {
                out.add(w);
            }
        }
        return out;
    }

    private static String trim(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }

    private static String text(JsonNode node, String field) {
        JsonNode v = node.path(field);
        return v.isValueNode() && !v.isNull() && !v.asText().isEmpty() ? v.asText() : null;
    }
}
