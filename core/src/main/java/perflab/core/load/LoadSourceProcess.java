package perflab.core.load;

import perflab.core.result.LoadFigures;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** A load source started for a run: the process the monitors sample, its stop, and what it measured. */
public interface LoadSourceProcess {
    long pid();

    /** The ports it listens on, by the names of {@link LoadSource#portNames} (and any other names run.json shows). */
    Map<String, Integer> ports();

    /** Its command line as run (run.json). */
    List<String> command();

    boolean alive();

    /** Its exit status once it has ended, null while it runs. */
    Integer exitCode();

    /** Why it ended, in the tool's own words where it gave some; for a warning when it ended before the drive did. */
    String exitExplanation();

    /**
     * Asks it to stop without waiting: no new load, what is open finishes. Several sources asked first and waited for
     * after then finish together, not one grace after another.
     */
    void askToStop();

    /** Stops it: what is open finishes within {@code grace}, then it is ended. Its exit status; -1 if it would not end. */
    int stop(Duration grace);

    /**
     * Its figures over the measured window [from, to]: only periods wholly inside it count. Never throws: figures
     * that cannot be read are empty with the reason as their note.
     */
    LoadFigures figures(Instant from, Instant to);

    /** Its periods over the whole run (about a second each), for timeseries-loads.csv and the fail-over phases. */
    List<LoadPeriod> periods();

    /** The columns of its periods, in the order timeseries-loads.csv shows them, each with how a phase adds it up. */
    List<LoadColumn> columns();
}
