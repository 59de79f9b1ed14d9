package perflab.experiment.study;

import perflab.core.result.Json;
import perflab.core.result.RunSummary;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * What an experiment's directory already holds, which is how an experiment resumes: the runs finished before
 * (their summary.json complete), what each run's SUT JVM really ran with, and when the experiment first started.
 */
final class RunDirectories {
    private RunDirectories() {
    }

    /** A run already in the directory: finished when its summary.json says complete; otherwise to be (re)run. */
    static RunRecord existing(Path dir, String rel, int repetition) {
        Path summary = dir.resolve(rel).resolve("summary.json");
        if (Files.isRegularFile(summary)) {
            try {
                RunSummary s = Json.read(summary, RunSummary.class);
                if (s.complete()) {
                    return record(repetition, rel, RunRecord.OK, null, s, dir.resolve(rel));
                }
            } catch (IOException | RuntimeException e) {
                // unreadable: run it again
            }
        }
        return RunRecord.pending(repetition, rel);
    }

    /** A run's record, with what its SUT's JVM really ran with (run.json's effectiveJvm), when it says. */
    static RunRecord record(int repetition, String rel, String status, String reason, RunSummary summary, Path runDir) {
        String collector = null;
        Boolean thp = null;
        try {
            var node = Json.MAPPER.readTree(runDir.resolve("run.json").toFile()).path("effectiveJvm");
            if (node.path("collector").isTextual()) {
                collector = node.path("collector").asText();
            }
            if (node.path("useTransparentHugePages").isBoolean()) {
                thp = node.path("useTransparentHugePages").asBoolean();
            }
        } catch (IOException | RuntimeException e) {
            // no run.json (the SUT never started) or unreadable: the JVM is not known
        }
        return new RunRecord(repetition, rel, status, reason, summary, collector, thp);
    }

    /** The start of the experiment: kept from an earlier experiment.json when resuming. */
    static String previousStart(Path dir) {
        Path file = dir.resolve(ExperimentRunner.RESULT_JSON);
        if (Files.isRegularFile(file)) {
            try {
                var node = Json.MAPPER.readTree(file.toFile()).path("startedAt");
                if (node.isTextual()) {
                    return node.asText();
                }
            } catch (IOException | RuntimeException e) {
                // start afresh
            }
        }
        return Instant.now().toString();
    }

    /** A run that starts again starts from an empty directory: nothing of the interrupted attempt is mixed in. */
    static void deleteRecursively(Path p) throws IOException {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(p)) {
            for (Path x : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(x);
            }
        }
    }
}
