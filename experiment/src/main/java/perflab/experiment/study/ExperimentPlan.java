package perflab.experiment.study;

import perflab.core.config.ExperimentSpec;
import perflab.core.config.RunConfig;

import java.util.List;

/**
 * An experiment ready to run: the spec as written, and for each configuration its validated run
 * configuration.
 *
 * @param flatRuns with one repetition, each configuration's run goes straight into {@code <label>/} instead of
 *                 {@code <label>/rep-1/} (the client-scaling sweep's layout)
 */
public record ExperimentPlan(ExperimentSpec spec, String stack, String operation, List<Configuration> configurations,
                             boolean flatRuns) {
    public ExperimentPlan {
        configurations = List.copyOf(configurations);
    }

    /** One configuration: what it is, and its run (whose output directory the runner sets). */
    public record Configuration(Variant variant, RunConfig config, boolean jfr) {
    }

    public int repeat() {
        return spec.repeat();
    }

    /** A run's directory relative to the experiment's. */
    public String runDirectory(Configuration c, int repetition) {
        return flatRuns && repeat() == 1 ? c.variant().label() : c.variant().label() + "/rep-" + repetition;
    }
}
