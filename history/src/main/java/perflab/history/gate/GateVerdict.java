package perflab.history.gate;

import com.fasterxml.jackson.databind.JsonNode;
import perflab.history.RunFigure;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A gate's verdict on a run: each objective met or missed, each regression check, and the exit status a CI job acts
 * on. Kept in summary.json as {@code gate} (docs/history.md).
 *
 * @param verdict {@code pass}, {@code slo-missed} or {@code regression}
 */
public record GateVerdict(List<ObjectiveResult> objectives, List<RegressionCheck.Finding> regressions,
                          String verdict, int exitStatus) {
    /** Exit status: every objective met, no regression. */
    public static final int PASS = 0;
    /** Exit status: an objective missed (wins over a regression: a bound the user set is the plainer failure). */
    public static final int SLO_MISSED = 3;
    /** Exit status: a regression against the history. */
    public static final int REGRESSION = 4;

    /**
     * One objective's outcome.
     *
     * @param actual the run's figure, null when the run has none (which misses the objective: a gate never passes on a
     *               figure it could not see)
     */
    public record ObjectiveResult(String objective, String figure, Double actual, String unit, boolean met, String note) {
    }

    /** The verdict on a run's summary.json against {@code objectives} and the regression {@code findings}. */
    public static GateVerdict of(JsonNode summary, List<Objective> objectives, List<RegressionCheck.Finding> findings) {
        return of(RunFigure.of(summary), objectives, findings);
    }

    /**
     * The verdict on {@code figures} (a run's, or the means of a configuration's repeats: {@link RunFigure#meansOf})
     * against {@code objectives} and the regression {@code findings}.
     */
    public static GateVerdict of(List<perflab.history.Figure> figures, List<Objective> objectives,
                                 List<RegressionCheck.Finding> findings) {
        List<ObjectiveResult> results = new ArrayList<>();
        for (Objective o : objectives) {
            Optional<Double> actual = figures.stream()
                    .filter(f -> f.scope().isEmpty() && f.name().equals(o.figure().key())).map(f -> f.value()).findFirst();
            boolean met = actual.isPresent() && o.met(actual.get());
            String note = actual.isEmpty() ? "the run has no " + o.figure().key() + " (" + o.figure().description() + ")"
                    : (met ? "met" : "missed") + ": " + Objective.format(Math.round(actual.get() * 1000) / 1000.0)
                    + (o.figure().unit().isEmpty() ? "" : " " + o.figure().unit()) + ", bound " + o.boundText();
            results.add(new ObjectiveResult(o.text(), o.figure().key(), actual.orElse(null), o.figure().unit(), met, note));
        }
        boolean missed = results.stream().anyMatch(r -> !r.met());
        boolean regressed = findings.stream().anyMatch(RegressionCheck.Finding::regression);
        String verdict = missed ? "slo-missed" : regressed ? "regression" : "pass";
        return new GateVerdict(results, findings, verdict, missed ? SLO_MISSED : regressed ? REGRESSION : PASS);
    }

    /** The verdict for the console, a line per objective and check. */
    public List<String> lines() {
        List<String> out = new ArrayList<>();
        for (ObjectiveResult r : objectives) {
            out.add("  slo " + r.objective() + ": " + r.note());
        }
        for (RegressionCheck.Finding f : regressions) {
            out.add("  regression check " + f.describe());
        }
        out.add("  verdict: " + verdict + " (exit " + exitStatus + ")");
        return out;
    }
}
