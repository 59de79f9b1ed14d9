package perflab.report;

import perflab.core.result.ExperimentResult.Interval;
import perflab.core.stats.Statistics;
import perflab.history.RunFigure;
import perflab.history.changes.ChangePoint;
import perflab.history.changes.EDivisive;
import perflab.history.store.HistoryStore;
import perflab.history.store.RunFilter;
import perflab.history.store.SeriesPoint;
import perflab.history.store.StoredRun;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * {@code perflab history report}: the history as a self-contained page. Per configuration (those with the newest runs
 * first), a trend chart per figure: each run a point in recording order, an experiment's repeats of the configuration
 * one point with its 95 % interval, each segment's level between change points as a line, the change points shaded;
 * then the changes in a table, and links to the newest runs' own reports while their directories are there.
 */
public final class HistoryReport {
    /** The figures charted for each configuration, when its runs have them. */
    static final List<RunFigure> CHARTED = List.of(RunFigure.THROUGHPUT, RunFigure.P99, RunFigure.CPU_PER_REQUEST);
    /** Configurations on one page: the rest are named, not charted (filter to see them). */
    static final int MAX_CONFIGURATIONS = 12;
    static final int LINKED_RUNS = 10;

    private HistoryReport() {
    }

    /** One point of a trend: a run, or an experiment's repeats of the configuration. */
    record Point(List<SeriesPoint> runs, double mean, double low, double high) {
        static Point of(List<SeriesPoint> runs) {
            double[] v = runs.stream().mapToDouble(SeriesPoint::value).toArray();
            Interval i = Statistics.interval(v);
            double low = i.ciLow() == null ? Double.NaN : i.ciLow();
            double high = i.ciHigh() == null ? Double.NaN : i.ciHigh();
            return new Point(runs, Statistics.mean(v), low, high);
        }

        String label() {
            SeriesPoint first = runs.get(0);
            return first.label() != null ? first.label() : "run " + first.runId();
        }
    }

    /** Writes the page of the runs {@code filter} selects into {@code file}; returns how many charts it drew. */
    public static int write(HistoryStore store, RunFilter filter, Path file) throws IOException, SQLException {
        List<StoredRun> runs = store.runs(filter);
        Map<String, List<StoredRun>> byConfiguration = new LinkedHashMap<>();
        for (int i = runs.size() - 1; i >= 0; i--) {
            byConfiguration.computeIfAbsent(runs.get(i).configKey(), k -> new ArrayList<>()).add(0, runs.get(i));
        }
        HtmlPage page = new HtmlPage("perflab history");
        page.paragraph(String.format(Locale.ROOT, "%s: %d run%s of %d configuration%s%s. Each point is a run in the order "
                        + "they were recorded, or an experiment's repeats of the configuration with their 95 %% interval; the "
                        + "line is each segment's level between change points (E-divisive means, Welch p < 0.0001, at least "
                        + "2 %% and 3 points each side; docs/history.md).", store.file(), runs.size(),
                runs.size() == 1 ? "" : "s", byConfiguration.size(), byConfiguration.size() == 1 ? "" : "s",
                byConfiguration.size() > MAX_CONFIGURATIONS ? ", the " + MAX_CONFIGURATIONS + " with the newest runs charted"
                        : ""));
        if (runs.isEmpty()) {
            page.notice("info", "No run matches.");
        }
        int c = 0;
        for (Map.Entry<String, List<StoredRun>> e : byConfiguration.entrySet()) {
            List<StoredRun> configRuns = e.getValue();
            StoredRun newest = configRuns.get(configRuns.size() - 1);
            if (c >= MAX_CONFIGURATIONS) {
                page.paragraph("Not charted: " + newest.configuration() + " [" + e.getKey() + "], " + configRuns.size()
                        + " runs (perflab history report --config " + e.getKey() + ").");
                continue;
            }
            c++;
            page.heading(newest.configuration() + " [" + e.getKey() + "]");
            Map<String, String> facts = new LinkedHashMap<>();
            facts.put("runs", Integer.toString(configRuns.size()));
            facts.put("first", configRuns.get(0).startedAt());
            facts.put("newest", newest.startedAt() + (newest.label() == null ? "" : " (" + newest.label() + ")"));
            page.facts(facts);
            HtmlTable changes = new HtmlTable("figure", "from", "before#", "after#", "change %#", "95 % interval", "p#", "");
            java.util.Set<Long> shown = configRuns.stream().map(StoredRun::id).collect(java.util.stream.Collectors.toSet());
            for (RunFigure figure : CHARTED) {
                List<SeriesPoint> series = store.series(e.getKey(), "", figure.key(), true).stream()
                        .filter(p -> shown.contains(p.runId())).toList();
                if (series.isEmpty()) {
                    continue;
                }
                List<Point> points = points(series);
                double[] means = points.stream().mapToDouble(Point::mean).toArray();
                List<ChangePoint> found = EDivisive.find(means, EDivisive.Settings.DEFAULT);
                page.chart(chart("c" + c + "-" + figure.key(), figure, points, found));
                for (ChangePoint cp : found) {
                    Point at = points.get(cp.index());
                    changes.styledRow(figure.better().worse(cp.before(), cp.after()) ? "bad" : "good", figure.key(),
                            "run " + at.runs().get(0).runId() + " (" + at.label() + ")", number(cp.before()),
                            number(cp.after()), String.format(Locale.ROOT, "%+.1f", cp.changePercent()),
                            String.format(Locale.ROOT, "%+.1f to %+.1f", cp.low(), cp.high()),
                            String.format(Locale.ROOT, "%.2g", cp.p()),
                            figure.better().worse(cp.before(), cp.after()) ? "worse" : "better");
                }
            }
            if (changes.isEmpty()) {
                page.paragraph("No change point.");
            } else {
                page.table(changes);
            }
            int linked = 0;
            for (int i = configRuns.size() - 1; i >= 0 && linked < LINKED_RUNS; i--) {
                StoredRun r = configRuns.get(i);
                Path report = Path.of(r.directory()).resolve("report.html");
                if (Files.isRegularFile(report)) {
                    page.link("run " + r.id() + ", " + r.startedAt() + (r.label() == null ? "" : ", " + r.label())
                            + ": its report", report.toUri().toString());
                    linked++;
                }
            }
        }
        page.write(file);
        return page.chartCount();
    }

    /** The series as points: consecutive runs of one experiment together. */
    static List<Point> points(List<SeriesPoint> series) {
        List<Point> out = new ArrayList<>();
        List<SeriesPoint> group = new ArrayList<>();
        for (SeriesPoint p : series) {
            if (!group.isEmpty() && (p.experiment() == null
                    || !Objects.equals(p.experiment(), group.get(0).experiment()))) {
                out.add(Point.of(group));
                group = new ArrayList<>();
            }
            group.add(p);
        }
        if (!group.isEmpty()) {
            out.add(Point.of(group));
        }
        return out;
    }

    static Chart chart(String id, RunFigure figure, List<Point> points, List<ChangePoint> changes) {
        int n = points.size();
        double[] x = new double[n];
        double[] y = new double[n];
        double[] low = new double[n];
        double[] high = new double[n];
        double[] level = new double[n];
        for (int i = 0; i < n; i++) {
            Point p = points.get(i);
            x[i] = i + 1;
            y[i] = p.mean();
            low[i] = p.low();
            high[i] = p.high();
        }
        int from = 0;
        for (int k = 0; k <= changes.size(); k++) {
            int to = k < changes.size() ? changes.get(k).index() : n;
            double mean = Statistics.mean(java.util.Arrays.copyOfRange(y, from, to));
            for (int i = from; i < to; i++) {
                level[i] = mean;
            }
            from = to;
        }
        String unit = figure.unit().isEmpty() ? "" : " (" + figure.unit() + ")";
        Chart chart = new Chart(id, figure.key() + unit + ": " + figure.description())
                .x("point (run, or an experiment's repeats), in recording order; first: " + points.get(0).label()
                        + ", last: " + points.get(n - 1).label(), "linear")
                .y(figure.key() + unit, "linear")
                .add(Chart.Series.scatter(figure.key(), x, y).errors(low, high))
                .add(Chart.Series.line("level between change points", x, level).stepped().dashed());
        for (ChangePoint cp : changes) {
            chart.band(cp.index() + 0.5, cp.index() + 1.5, String.format(Locale.ROOT, "%+.1f %%", cp.changePercent()));
        }
        return chart;
    }

    private static String number(double v) {
        return String.format(Locale.ROOT, Math.abs(v) >= 100 ? "%.0f" : "%.3f", v);
    }
}
