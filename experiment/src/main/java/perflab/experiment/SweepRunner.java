package perflab.experiment;

import perflab.core.config.RunConfig;
import perflab.core.result.AtomicFiles;
import perflab.core.workload.Workload;
import perflab.report.ScalingTable;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs one configuration per point of a sweep (e.g. clients 1, 8, 16, ... 128), one after the other, each
 * into its own sub-directory of the sweep's directory, and keeps the table of results up to date after
 * every point — so an interrupted sweep keeps the points it measured. The experiments to come (matrices,
 * steps, repeats) extend this.
 */
public final class SweepRunner {
    /** One point: its label (the sub-directory's name and the table's first column) and its run. */
    public record Point(String label, String value, RunConfig config) {
    }

    private final Path perflabHome;
    private final PrintStream console;
    private final boolean jfr;
    private volatile boolean interrupted;
    private volatile RunOrchestrator current;

    public SweepRunner(Path perflabHome, PrintStream console, boolean jfr) {
        this.perflabHome = perflabHome;
        this.console = console;
        this.jfr = jfr;
    }

    /** Stops the running point and the sweep (Ctrl-C); waits, bounded, for its results to be written. */
    public void interrupt(Duration wait) {
        interrupted = true;
        RunOrchestrator run = current;
        if (run != null) {
            run.interrupt(wait);
        }
    }

    /**
     * Runs every point; writes {@code <column>.csv} and {@code <column>.md} into {@code sweepDir} after each.
     * Returns the exit status: 0 when every point completed, else the first non-zero one.
     */
    public int run(Workload workload, Path sweepDir, String column, List<Point> points) throws RunFailure, IOException {
        List<ScalingTable.Row> rows = new ArrayList<>();
        int status = RunOutcome.OK;
        for (int i = 0; i < points.size() && !interrupted; i++) {
            Point point = points.get(i);
            if (console != null) {
                console.printf("%nperflab: sweep point %d of %d: %s = %s%n", i + 1, points.size(), column, point.value());
            }
            RunOrchestrator run = new RunOrchestrator(perflabHome, sweepDir, console).recordJfr(jfr);
            current = run;
            RunOutcome outcome;
            try {
                outcome = run.run(point.config(), workload);
            } finally {
                current = null;
            }
            rows.add(new ScalingTable.Row(point.value(), outcome.summary()));
            writeTables(sweepDir, column, rows);
            if (outcome.exitStatus() != RunOutcome.OK && status == RunOutcome.OK) {
                status = outcome.exitStatus();
            }
            if (outcome.exitStatus() == RunOutcome.INTERRUPTED) {
                break;
            }
        }
        if (console != null) {
            console.printf("%n%s%nperflab: sweep results in %s%n", ScalingTable.markdown(column, rows), sweepDir);
        }
        return interrupted && status == RunOutcome.OK ? RunOutcome.INTERRUPTED : status;
    }

    private static void writeTables(Path dir, String column, List<ScalingTable.Row> rows) throws IOException {
        AtomicFiles.write(dir.resolve(column + ".csv"), ScalingTable.csv(column, rows));
        AtomicFiles.write(dir.resolve(column + ".md"), ScalingTable.markdown(column, rows));
    }
}
