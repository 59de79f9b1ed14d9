package perflab.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import perflab.core.config.RunConfig;
import perflab.core.result.ExperimentResult;
import perflab.core.result.Json;
import perflab.experiment.study.ExperimentRunner;
import perflab.experiment.study.RunRecord;
import perflab.history.RunFigure;
import perflab.history.gate.ExperimentVerdict;
import perflab.experiment.run.RunOutcome;
import perflab.history.HistoryRecorder;
import perflab.history.gate.GateVerdict;
import perflab.history.gate.JUnitReport;
import perflab.history.gate.Objective;
import perflab.history.gate.ObjectiveParser;
import perflab.history.gate.RegressionCheck;
import perflab.history.store.HistoryStore;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * A run judged for CI ({@code --slo}, {@code --no-regression}, {@code --junit}): its objectives checked against its
 * figures and, against the history, its regressions; the verdict printed, kept in summary.json's {@code gate} and, if
 * asked, written as JUnit XML. Exit status 0 pass, 3 an objective missed, 4 a regression (docs/history.md).
 */
final class Gate {
    private final List<Objective> objectives;
    private final boolean noRegression;
    private final Path junit;

    private Gate(List<Objective> objectives, boolean noRegression, Path junit) {
        this.objectives = objectives;
        this.noRegression = noRegression;
        this.junit = junit;
    }

    /** The gate these flags ask for, checked before the run; null when none is asked for. */
    static Gate of(String slo, boolean noRegression, Path junit, RunConfig.Recording recording) {
        if (slo == null && !noRegression) {
            if (junit != null) {
                throw new IllegalArgumentException("--junit writes a gate's verdict: give --slo or --no-regression too");
            }
            return null;
        }
        if (noRegression && (recording == null || recording.history() == null)) {
            throw new IllegalArgumentException("--no-regression compares the run with its history: leave --history on "
                    + "(not off)");
        }
        return new Gate(slo == null ? List.of() : ObjectiveParser.parse(slo), noRegression, junit);
    }

    /** Judges a finished run; returns the exit status (the run's own when it did not complete). */
    int judge(RunOutcome outcome, RunConfig config) throws IOException {
        if (outcome.exitStatus() != RunOutcome.OK) {
            System.err.println("perflab: gate: not judged: the run did not complete");
            return outcome.exitStatus();
        }
        Path summaryFile = outcome.directory().resolve("summary.json");
        ObjectNode summary = (ObjectNode) Json.MAPPER.readTree(summaryFile.toFile());
        GateVerdict verdict;
        try (Past past = past(config.recording())) {
            verdict = GateVerdict.of(summary, objectives, past.findings(outcome.directory()));
        } catch (NotInHistory e) {
            System.err.println("perflab: gate: " + e.getMessage());
            return RunOutcome.FAILED;
        }
        summary.set("gate", Json.MAPPER.valueToTree(verdict));
        Json.write(summaryFile, summary);
        System.out.println("perflab: gate");
        verdict.lines().forEach(System.out::println);
        if (junit != null) {
            JUnitReport.write(junit, "perflab " + config.workload() + " " + outcome.directory().getFileName(), verdict);
        }
        return verdict.exitStatus();
    }

    /**
     * Judges a finished experiment: each configuration's objectives on the means of its complete runs, and its
     * repeats against the runs of the same configuration before the experiment. Returns the exit status (the
     * experiment's own when it did not complete).
     */
    int judge(int status, Path dir, RunConfig.Recording recording) throws IOException {
        if (status != RunOutcome.OK) {
            System.err.println("perflab: gate: not judged: the experiment did not complete");
            return status;
        }
        Path resultFile = dir.resolve(ExperimentRunner.RESULT_JSON);
        ObjectNode tree = (ObjectNode) Json.MAPPER.readTree(resultFile.toFile());
        ExperimentResult result = Json.MAPPER.treeToValue(tree, ExperimentResult.class);
        List<ExperimentVerdict.Configuration> judged = new ArrayList<>();
        try (Past past = past(recording)) {
            for (ExperimentResult.Configuration c : result.configurations()) {
                List<Path> runs = c.runs().stream().filter(r -> RunRecord.OK.equals(r.status()))
                        .map(r -> dir.resolve(r.directory())).toList();
                if (runs.isEmpty()) {
                    judged.add(new ExperimentVerdict.Configuration(c.label(), c.name(), 0, null));
                    continue;
                }
                List<JsonNode> summaries = new ArrayList<>();
                for (Path run : runs) {
                    summaries.add(Json.MAPPER.readTree(run.resolve("summary.json").toFile()));
                }
                // the check finds the experiment's other repeats of the configuration from any one of them
                GateVerdict gate = GateVerdict.of(RunFigure.meansOf(summaries), objectives, past.findings(runs.get(0)));
                judged.add(new ExperimentVerdict.Configuration(c.label(), c.name(), runs.size(), gate));
            }
        } catch (NotInHistory e) {
            System.err.println("perflab: gate: " + e.getMessage());
            return RunOutcome.FAILED;
        }
        ExperimentVerdict verdict = ExperimentVerdict.of(judged);
        tree.set("gate", Json.MAPPER.valueToTree(verdict));
        Json.write(resultFile, tree);
        System.out.println("perflab: gate");
        verdict.lines().forEach(System.out::println);
        if (junit != null) {
            JUnitReport.write(junit, "perflab tune " + result.workload() + " " + dir.getFileName(), verdict);
        }
        return verdict.exitStatus();
    }

    /** The history the runs are compared with: none without --no-regression. */
    private Past past(RunConfig.Recording recording) throws NotInHistory {
        if (!noRegression) {
            return new Past(null, null);
        }
        Path history = Path.of(recording.history());
        try {
            return new Past(history, HistoryStore.open(history, HistoryRecorder.BUSY_WAIT.multipliedBy(5)));
        } catch (SQLException | IOException e) {
            throw new NotInHistory("history " + history + ": " + HistoryRecorder.reason(e));
        }
    }

    /** An open history (or none), to look runs' pasts up in. */
    private record Past(Path file, HistoryStore store) implements AutoCloseable {
        /** The regression checks of the run in {@code directory}; none without a history. */
        List<RegressionCheck.Finding> findings(Path directory) throws NotInHistory {
            if (store == null) {
                return List.of();
            }
            try {
                Long id = store.idOf(directory);
                if (id == null) {
                    // a gate never passes on what it could not see
                    throw new NotInHistory("the run " + directory + " is not in the history " + file
                            + ", so it was not compared with its past");
                }
                return RegressionCheck.check(store, id, RegressionCheck.Settings.DEFAULT);
            } catch (SQLException e) {
                throw new NotInHistory("history " + file + ": " + HistoryRecorder.reason(e));
            }
        }

        @Override
        public void close() {
            if (store != null) {
                try {
                    store.close();
                } catch (SQLException e) {
                    // only read from: nothing of the verdict is lost
                }
            }
        }
    }

    /** The history could not be read, or lacks the run: the gate fails rather than pass unseen. */
    private static final class NotInHistory extends Exception {
        NotInHistory(String message) {
            super(message);
        }
    }
}
