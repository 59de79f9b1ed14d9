package perflab.cli;

import perflab.history.HistoryFile;
import perflab.history.HistoryImport;
import perflab.history.HistoryRecorder;
import perflab.history.RunFigure;
import perflab.history.changes.ChangePoint;
import perflab.history.changes.EDivisive;
import perflab.history.gate.RegressionCheck;
import perflab.history.store.HistoryStore;
import perflab.history.store.RunFilter;
import perflab.history.store.SeriesPoint;
import perflab.history.store.StoredRun;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/** perflab history: the results history's runs listed, a configuration's series shown with its change points. */
@Command(name = "history", mixinStandardHelpOptions = true,
        description = {"Every run perflab finishes is recorded in a results history (one SQLite file; docs/history.md): "
                + "list its runs, show one figure's series for one configuration with its change points, import result "
                + "directories written before.",
                "Examples: perflab history list --workload trade; perflab history show p99 --run 42; "
                        + "perflab history import results/"},
        subcommands = {HistoryCommand.Import.class, HistoryCommand.ListRuns.class, HistoryCommand.Show.class,
                HistoryCommand.Report.class, HistoryCommand.Export.class})
final class HistoryCommand implements Callable<Integer> {
    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(System.err);
        return Perflab.BAD_INPUT;
    }

    /** --history, as run and tune take it, for the history's own commands. */
    static final class Location {
        @Option(names = "--history", paramLabel = "FILE", description = "The history file (default: $PERFLAB_HISTORY, "
                + "else ~/.local/share/perflab/history.sqlite).")
        String history;

        Path file() {
            return HistoryFile.resolve(history, System.getenv()).orElseThrow(() -> new IllegalArgumentException(
                    "--history is off ($" + HistoryFile.ENV + "=off): give the history's file with --history FILE"));
        }

        /** The history to read, which must exist: reading never creates one. */
        HistoryStore openExisting() throws IOException {
            Path f = file();
            if (!Files.isRegularFile(f)) {
                throw new IOException("no history at " + f + " yet: runs are recorded there as they finish, and "
                        + "`perflab history import DIR` records earlier ones");
            }
            return open(f);
        }

        static HistoryStore open(Path f) throws IOException {
            try {
                return HistoryStore.open(f, HistoryRecorder.BUSY_WAIT.multipliedBy(5));
            } catch (SQLException e) {
                throw failure(f, e);
            }
        }

        /** Runs {@code work} on the existing history; a database error becomes one line naming the file. */
        int reading(StoreWork work) throws IOException {
            try (HistoryStore store = openExisting()) {
                return work.on(store);
            } catch (SQLException e) {
                throw failure(file(), e);
            }
        }

        /** Runs {@code work} on the history, made if it is not there yet. */
        int writing(StoreWork work) throws IOException {
            Path f = file();
            try (HistoryStore store = open(f)) {
                return work.on(store);
            } catch (SQLException e) {
                throw failure(f, e);
            }
        }

        private static IOException failure(Path f, SQLException e) {
            return new IOException("history " + f + ": " + HistoryRecorder.reason(e));
        }
    }

    /** A command's work on an open history. */
    @FunctionalInterface
    interface StoreWork {
        int on(HistoryStore store) throws SQLException, IOException;
    }

    @Command(name = "import", mixinStandardHelpOptions = true,
            description = {"Record result directories in the history: runs, experiments, sweeps, or a whole results/ "
                    + "directory (runs up to 4 levels below). A run recorded before is left as it is.",
                    "Example: perflab history import results/ --label v1.2"})
    static final class Import implements Callable<Integer> {
        @Mixin
        Location location;

        @Parameters(arity = "1..*", paramLabel = "DIR", description = "A run's, an experiment's or a results directory.")
        List<Path> dirs;

        @Option(names = "--label", paramLabel = "TEXT", description = "The label of runs that have none of their own.")
        String label;

        @Override
        public Integer call() throws IOException {
            HistoryFile.recording("off", label, Map.of()); // the label's checks, as run's
            for (Path d : dirs) {
                if (HistoryImport.runsIn(d).isEmpty()) {
                    throw new IllegalArgumentException(d + " holds no run (no run.json in it or up to 4 levels below)");
                }
            }
            Path f = location.file();
            return location.writing(store -> {
                HistoryImport.Outcome o = HistoryImport.into(store, dirs, label);
                o.problems().forEach(p -> System.err.println("perflab: history import: not recorded: " + p));
                System.out.printf(Locale.ROOT, "perflab: history %s: %d run%s recorded, %d recorded before, %d unreadable%n",
                        f, o.added(), o.added() == 1 ? "" : "s", o.present(), o.problems().size());
                return o.added() + o.present() == 0 ? 1 : 0;
            });
        }
    }

    /** Filters shared by list and show. */
    static final class Filters {
        @Option(names = "--workload", paramLabel = "NAME", description = "Only this workload's runs.")
        String workload;
        @Option(names = "--stack", paramLabel = "NAME", description = "Only runs of this stack (or server file's name).")
        String stack;
        @Option(names = "--operation", paramLabel = "NAME", description = "Only runs of this operation.")
        String operation;
        @Option(names = "--label", paramLabel = "TEXT", description = "Only runs with this label.")
        String label;
        @Option(names = "--config", paramLabel = "KEY", description = "Only runs of this configuration (its key, as "
                + "listed, or its first characters).")
        String config;
        @Option(names = "--matching", paramLabel = "TEXT", description = "Only runs whose configuration line contains "
                + "TEXT (e.g. data-access=jpa).")
        String matching;
        @Option(names = "--since", paramLabel = "DATE", description = "Only runs started on or after DATE (2026-11-29, or an ISO instant).")
        String since;
        @Option(names = "--until", paramLabel = "DATE", description = "Only runs started before the end of DATE.")
        String until;
        @Option(names = "--status", paramLabel = "STATUS", description = "Only complete, incomplete or failed runs.")
        String status;

        /** The filters' own checks, before any file is opened. */
        void check() {
            for (String[] d : new String[][]{{"--since", since}, {"--until", until}}) {
                if (d[1] != null && !d[1].matches("\\d{4}-\\d{2}-\\d{2}(T[0-9:.]+Z?)?")) {
                    throw new IllegalArgumentException(d[0] + " " + d[1] + ": give a date (2026-11-29) or an instant "
                            + "(2026-11-29T12:00:00Z)");
                }
            }
            if (status != null && !List.of("complete", "incomplete", "failed").contains(status)) {
                throw new IllegalArgumentException("--status " + status + ": give complete, incomplete or failed");
            }
        }

        RunFilter filter(HistoryStore store, int limit) throws SQLException {
            return new RunFilter(workload, stack, operation, label, config == null ? null : configKey(store, config),
                    matching, since, until, status, limit);
        }
    }

    /** The whole key that {@code prefix} starts, which must be one. */
    static String configKey(HistoryStore store, String prefix) throws SQLException {
        if (!prefix.matches("[0-9a-f]{4,16}")) {
            throw new IllegalArgumentException("--config " + prefix + ": give a configuration's key as listed (4 to 16 "
                    + "hex digits)");
        }
        List<String> keys = store.configKeysStartingWith(prefix);
        if (keys.size() != 1) {
            throw new IllegalArgumentException("--config " + prefix + ": " + (keys.isEmpty() ? "no configuration in the "
                    + "history has this key" : keys.size() + " configurations' keys start so; give more of it"));
        }
        return keys.get(0);
    }

    @Command(name = "list", mixinStandardHelpOptions = true,
            description = {"List the history's runs, oldest first: when, label, status, throughput, p99, errors, the "
                    + "server side's CPU per request, and the configuration with its key.",
                    "Example: perflab history list --workload trade --since 2026-11-01"})
    static final class ListRuns implements Callable<Integer> {
        @Mixin
        Location location;
        @Mixin
        Filters filters;
        @Option(names = "--limit", paramLabel = "N", defaultValue = "50", description = "The newest N runs (0: all). Default: ${DEFAULT-VALUE}.")
        int limit;

        @Override
        public Integer call() throws IOException {
            if (limit < 0) {
                throw new IllegalArgumentException("--limit " + limit + ": give 0 (all) or more");
            }
            filters.check();
            return location.reading(store -> {
                List<StoredRun> runs = store.runs(filters.filter(store, limit));
                System.out.printf(Locale.ROOT, "%6s  %-20s  %-12s  %-10s  %10s  %9s  %7s  %10s  %s%n", "run", "started (UTC)",
                        "label", "status", "req/s", "p99 ms", "errors", "CPU µs/req", "configuration [key]");
                for (StoredRun r : runs) {
                    System.out.printf(Locale.ROOT, "%6d  %-20s  %-12s  %-10s  %10s  %9s  %7s  %10s  %s [%s]%n", r.id(),
                            shortTime(r.startedAt()), r.label() == null ? "-" : clip(r.label(), 12), r.status(),
                            number(r.figures().get("throughput"), 1), number(r.figures().get("p99"), 3),
                            number(r.figures().get("errors"), 0), number(r.figures().get("cpuPerRequest"), 1),
                            r.configuration(), r.configKey());
                }
                if (runs.isEmpty()) {
                    System.out.println("(no run matches)");
                }
                return 0;
            });
        }
    }

    @Command(name = "show", mixinStandardHelpOptions = true,
            description = {"One figure's series for one configuration, oldest first, and its change points (E-divisive "
                    + "means with Welch's test, p < 0.0001, at least 2 %% and 3 runs each side; docs/history.md).",
                    "Example: perflab history show p99 --run 42 (the configuration of run 42)"})
    static final class Show implements Callable<Integer> {
        @Mixin
        Location location;

        @Parameters(index = "0", paramLabel = "FIGURE", description = "A figure's name: throughput, p99, cpuPerRequest, ... "
                + "(perflab history show --help lists them), or a load source's or the workload's own with --scope.")
        String figure;

        @Option(names = "--config", paramLabel = "KEY", description = "The configuration (its key, or its first characters).")
        String config;

        @Option(names = "--run", paramLabel = "ID", description = "The configuration of this run.")
        Long run;

        @Option(names = "--scope", paramLabel = "SCOPE", defaultValue = "", description = "kind:<kind>, load:<name> "
                + "or workload: a request kind's, a load source's or the workload's own figure (default: the run's).")
        String scope;

        @Option(names = "--with-incomplete", description = "Count interrupted and failed runs too (their windows were cut short).")
        boolean withIncomplete;

        @Override
        public Integer call() throws IOException {
            if ((config == null) == (run == null)) {
                throw new IllegalArgumentException("give the configuration: --config KEY or --run ID");
            }
            if (!(scope.isEmpty() || scope.startsWith("kind:") || scope.startsWith("load:") || scope.equals("workload"))) {
                throw new IllegalArgumentException("--scope " + scope + ": give kind:<kind>, load:<name> or workload");
            }
            if ((scope.isEmpty() || scope.startsWith("kind:")) && RunFigure.named(figure).isEmpty()) {
                throw new IllegalArgumentException("unknown figure '" + figure + "'; known: " + RunFigure.names());
            }
            return location.reading(store -> {
                String key = config != null ? configKey(store, config) : store.configKeyOf(run);
                if (key == null) {
                    throw new IllegalArgumentException("--run " + run + ": the history has no such run");
                }
                List<SeriesPoint> series = store.series(key, scope, figure, !withIncomplete);
                if (series.isEmpty()) {
                    System.out.printf("perflab: configuration %s has no run with figure %s%s%n", key,
                            scope.isEmpty() ? "" : scope + " ", figure);
                    return 0;
                }
                String unit = RunFigure.named(figure).map(RunFigure::unit).orElse("");
                double[] values = series.stream().mapToDouble(SeriesPoint::value).toArray();
                List<ChangePoint> changes = EDivisive.find(values, EDivisive.Settings.DEFAULT);
                System.out.printf("perflab: %s%s of configuration %s, %d runs%n", scope.isEmpty() ? "" : scope + " ",
                        figure, key, series.size());
                int c = 0;
                for (int i = 0; i < series.size(); i++) {
                    SeriesPoint p = series.get(i);
                    boolean change = c < changes.size() && changes.get(c).index() == i;
                    System.out.printf(Locale.ROOT, "%s %6d  %-20s  %-14s  %12s %s%n", change ? ">" : " ", p.runId(),
                            shortTime(p.startedAt()), p.label() == null ? "-" : clip(p.label(), 14),
                            number(p.value(), 3), unit);
                    if (change) {
                        c++;
                    }
                }
                for (ChangePoint cp : changes) {
                    SeriesPoint at = series.get(cp.index());
                    System.out.printf(Locale.ROOT, "change at run %d (%s%s): %s -> %s %s, %+.1f %% (95 %% interval %+.1f "
                                    + "to %+.1f %%, p %.2g), %s%n", at.runId(), shortTime(at.startedAt()),
                            at.label() == null ? "" : ", " + at.label(), number(cp.before(), 3), number(cp.after(), 3),
                            unit, cp.changePercent(), cp.low(), cp.high(), cp.p(),
                            RunFigure.better(scope, figure).worse(cp.before(), cp.after()) ? "worse" : "better");
                }
                if (changes.isEmpty()) {
                    System.out.println("no change point");
                }
                // a change in the newest runs has too few runs after it to be a change point yet: the gate's check
                RunFigure known = scope.isEmpty() ? RunFigure.named(figure).orElse(null) : null;
                if (known != null && series.size() > 1) {
                    SeriesPoint newest = series.get(series.size() - 1);
                    RegressionCheck.Finding f = RegressionCheck.compare(known, Arrays.copyOf(values, values.length - 1),
                            new double[]{newest.value()}, newest.runId(), RegressionCheck.Settings.DEFAULT);
                    System.out.println("newest run " + newest.runId() + " against the runs before it: " + f.describe());
                }
                return 0;
            });
        }
    }

    @Command(name = "report", mixinStandardHelpOptions = true,
            description = {"Write the history as a self-contained HTML page (charts inlined, works offline) and print its "
                    + "path: per configuration, a trend chart of throughput, p99 and CPU per request, each run a point "
                    + "(an experiment's repeats one point with its 95 %% interval), change points marked, links to the "
                    + "runs' own reports.",
                    "Example: perflab history report --workload trade -o trade-history.html"})
    static final class Report implements Callable<Integer> {
        @Mixin
        Location location;
        @Mixin
        Filters filters;
        @Option(names = {"-o", "--output"}, paramLabel = "FILE", defaultValue = "history.html",
                description = "The page to write. Default: ${DEFAULT-VALUE}.")
        Path output;

        @Override
        public Integer call() throws IOException {
            filters.check();
            return location.reading(store -> {
                perflab.report.HistoryReport.write(store, filters.filter(store, 0), output);
                System.out.println(output);
                return 0;
            });
        }
    }

    @Command(name = "export", mixinStandardHelpOptions = true,
            description = {"Print the history's runs with every figure, as CSV (one row per run and figure: long form, "
                    + "for a spreadsheet's pivot or pandas) or JSON (one object per run with its figures by scope).",
                    "Example: perflab history export --format csv --workload trade > trade.csv"})
    static final class Export implements Callable<Integer> {
        @Mixin
        Location location;
        @Mixin
        Filters filters;
        @Option(names = "--format", paramLabel = "csv|json", defaultValue = "csv", description = "Default: ${DEFAULT-VALUE}.")
        String format;

        @Override
        public Integer call() throws IOException {
            if (!format.equals("csv") && !format.equals("json")) {
                throw new IllegalArgumentException("--format " + format + ": give csv or json");
            }
            filters.check();
            return location.reading(store -> {
                java.io.PrintWriter out = new java.io.PrintWriter(new java.io.BufferedWriter(
                        new java.io.OutputStreamWriter(System.out, java.nio.charset.StandardCharsets.UTF_8)));
                perflab.history.HistoryExport.write(store, filters.filter(store, 0), format, out);
                out.flush();
                return 0;
            });
        }
    }

    static String shortTime(String instant) {
        return instant == null ? "-" : instant.length() > 19 ? instant.substring(0, 19).replace('T', ' ') : instant;
    }

    private static String clip(String s, int n) {
        return s.length() <= n ? s : s.substring(0, n - 1) + "…";
    }

    private static String number(Double v, int decimals) {
        return v == null ? "-" : String.format(Locale.ROOT, "%." + decimals + "f", v);
    }
}
