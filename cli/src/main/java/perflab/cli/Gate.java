package perflab.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import perflab.core.config.RunConfig;
import perflab.core.result.Json;
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
        List<RegressionCheck.Finding> findings = List.of();
        if (noRegression) {
            Path history = Path.of(config.recording().history());
            try (HistoryStore store = HistoryStore.open(history, HistoryRecorder.BUSY_WAIT.multipliedBy(5))) {
                Long id = store.idOf(outcome.directory());
                if (id == null) {
                    // a gate never passes on what it could not see
                    System.err.println("perflab: gate: the run is not in the history " + history
                            + ", so it was not compared with its past");
                    return RunOutcome.FAILED;
                }
                findings = RegressionCheck.check(store, id, RegressionCheck.Settings.DEFAULT);
            } catch (SQLException e) {
                System.err.println("perflab: gate: history " + history + ": " + HistoryRecorder.reason(e));
                return RunOutcome.FAILED;
            }
        }
        GateVerdict verdict = GateVerdict.of(summary, objectives, findings);
        summary.set("gate", Json.MAPPER.valueToTree(verdict));
        Json.write(summaryFile, summary);
        System.out.println("perflab: gate");
        verdict.lines().forEach(System.out::println);
        if (junit != null) {
            JUnitReport.write(junit, "perflab " + config.workload() + " " + outcome.directory().getFileName(), verdict);
        }
        return verdict.exitStatus();
    }
}
