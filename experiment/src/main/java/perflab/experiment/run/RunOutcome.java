package perflab.experiment.run;

import perflab.core.result.RunSummary;

import java.nio.file.Path;

/** What a run left behind: its directory and summary, and the exit status the CLI should return. */
public record RunOutcome(Path directory, RunSummary summary, int exitStatus) {
    /** The run completed and measured. */
    public static final int OK = 0;
    /** The run could not complete (SUT crash, run failure); partial results kept. */
    public static final int FAILED = 1;
    /** Stopped by the user (Ctrl-C); partial results kept. */
    public static final int INTERRUPTED = 130;
}
