package perflab.experiment.study;

import perflab.experiment.run.RunFailure;
import perflab.experiment.run.RunOutcome;

import perflab.core.config.ExperimentSpec;
import perflab.core.config.RunConfig;
import perflab.core.result.AtomicFiles;
import perflab.core.result.ExperimentResult;
import perflab.core.result.Json;
import perflab.core.result.RunSummary;
import perflab.core.workload.Workload;
import perflab.report.ScalingTable;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A one-setting sweep (e.g. clients 1, 8, 16, ... 128, `perflab run --clients 1,8,16`): an experiment of one
 * matrix dimension run once per value by the {@link ExperimentRunner}, each run straight into
 * {@code <label>/}, plus the harness's scaling table ({@code <column>.csv}, {@code <column>.md}) kept up to date
 * after every point.
 */
public final class SweepRunner {
    /** One point: its label (the sub-directory's name and the table's first column) and its run. */
    public record Point(String label, String value, RunConfig config) {
    }

    private final ExperimentRunner runner;
    private final PrintStream console;
    private final boolean jfr;

    public SweepRunner(Path perflabHome, PrintStream console, boolean jfr) {
        this.runner = new ExperimentRunner(perflabHome, console, false);
        this.console = console;
        this.jfr = jfr;
    }

    /** Stops the running point and the sweep (Ctrl-C); waits, bounded, for its results to be written. */
    public void interrupt(Duration wait) {
        runner.interrupt(wait);
    }

    /**
     * Runs every point; writes {@code <column>.csv} and {@code <column>.md} into {@code sweepDir} after each.
     * Returns the exit status: 0 when every point completed, 130 when interrupted, else 1.
     */
    public int run(Workload workload, Path sweepDir, String column, List<Point> points) throws RunFailure, IOException {
        List<String> values = points.stream().map(Point::value).toList();
        Map<String, List<String>> matrix = new LinkedHashMap<>();
        matrix.put(column, values);
        RunConfig first = points.get(0).config();
        ExperimentSpec spec = new ExperimentSpec(column, null, workload.name(), Map.of(), 1, matrix, List.of(), null, null);
        List<ExperimentPlan.Configuration> configs = new ArrayList<>();
        for (int i = 0; i < points.size(); i++) {
            Point p = points.get(i);
            Map<String, String> s = Map.of(column, p.value());
            configs.add(new ExperimentPlan.Configuration(new Variant(i + 1, p.label(), column + "=" + p.value(), s, s, null),
                    p.config(), jfr));
        }
        ExperimentPlan plan = new ExperimentPlan(spec, first.stack(), first.operation(), configs, true);
        ExperimentResult[] last = new ExperimentResult[1];
        runner.onUpdate(result -> {
            last[0] = result;
            writeTables(sweepDir, column, rows(sweepDir, points));
        });
        int status = runner.run(plan, workload, sweepDir);
        if (console != null) {
            console.printf("%n%s%nperflab: sweep results in %s%n", ScalingTable.markdown(column, rows(sweepDir, points)), sweepDir);
        }
        if (status != RunOutcome.OK || last[0] == null) {
            return status;
        }
        boolean allOk = last[0].configurations().stream().allMatch(c -> "ok".equals(c.status()));
        return allOk ? RunOutcome.OK : RunOutcome.FAILED;
    }

    private static List<ScalingTable.Row> rows(Path dir, List<Point> points) {
        List<ScalingTable.Row> rows = new ArrayList<>();
        for (Point p : points) {
            Path summary = dir.resolve(p.label()).resolve("summary.json");
            if (Files.isRegularFile(summary)) {
                try {
                    rows.add(new ScalingTable.Row(p.value(), Json.read(summary, RunSummary.class)));
                } catch (IOException e) {
                    rows.add(new ScalingTable.Row(p.value(), null));
                }
            } else if (Files.isDirectory(dir.resolve(p.label()))) {
                rows.add(new ScalingTable.Row(p.value(), null));
            }
        }
        return rows;
    }

    private static void writeTables(Path dir, String column, List<ScalingTable.Row> rows) {
        try {
            AtomicFiles.write(dir.resolve(column + ".csv"), ScalingTable.csv(column, rows));
            AtomicFiles.write(dir.resolve(column + ".md"), ScalingTable.markdown(column, rows));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
