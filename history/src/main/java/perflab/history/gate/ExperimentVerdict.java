package perflab.history.gate;

import java.util.ArrayList;
import java.util.List;

/**
 * A gate's verdict on an experiment ({@code perflab tune ... --slo --no-regression}): each configuration judged as a
 * run is, its objectives on the means of its repeats and its regression check on those repeats against the history,
 * and the experiment's verdict the worst of them. Kept in experiment.json as {@code gate} (docs/history.md).
 *
 * @param verdict {@code pass}, {@code slo-missed}, {@code regression}, or {@code not-measured} when a configuration
 *                had no complete run (a gate never passes on what it could not see)
 */
public record ExperimentVerdict(List<Configuration> configurations, String verdict, int exitStatus) {
    /** Exit status: a configuration was not measured, which fails the gate as a failed run does. */
    public static final int NOT_MEASURED = 1;

    /**
     * One configuration's verdict.
     *
     * @param runs the complete runs its figures are the means of; with none, {@code gate} is null
     */
    public record Configuration(String label, String name, int runs, GateVerdict gate) {
        /** How its test cases and console lines are named: {@code c2 clients=2}. */
        public String title() {
            return label + " " + name;
        }
    }

    public static ExperimentVerdict of(List<Configuration> configurations) {
        boolean unmeasured = configurations.stream().anyMatch(c -> c.gate() == null);
        int worst = configurations.stream().filter(c -> c.gate() != null).mapToInt(c -> rank(c.gate().exitStatus()))
                .max().orElse(0);
        if (unmeasured) {
            return new ExperimentVerdict(configurations, "not-measured", NOT_MEASURED);
        }
        int status = worst == 2 ? GateVerdict.SLO_MISSED : worst == 1 ? GateVerdict.REGRESSION : GateVerdict.PASS;
        String verdict = worst == 2 ? "slo-missed" : worst == 1 ? "regression" : "pass";
        return new ExperimentVerdict(configurations, verdict, status);
    }

    /** A missed objective outranks a regression, as on a run. */
    private static int rank(int exitStatus) {
        return exitStatus == GateVerdict.SLO_MISSED ? 2 : exitStatus == GateVerdict.REGRESSION ? 1 : 0;
    }

    /** The verdict for the console: each configuration's lines under its title, then the experiment's. */
    public List<String> lines() {
        List<String> out = new ArrayList<>();
        for (Configuration c : configurations) {
            if (c.gate() == null) {
                out.add("  " + c.title() + ": not measured (no complete run)");
                continue;
            }
            out.add("  " + c.title() + " (mean of " + c.runs() + " run" + (c.runs() == 1 ? "" : "s") + "): "
                    + c.gate().verdict());
            c.gate().lines().stream().filter(l -> !l.startsWith("  verdict:")).forEach(l -> out.add("  " + l));
        }
        out.add("  verdict: " + verdict + " (exit " + exitStatus + ")");
        return out;
    }
}
