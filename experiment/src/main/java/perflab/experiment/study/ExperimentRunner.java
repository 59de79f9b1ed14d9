package perflab.experiment.study;

import perflab.experiment.run.RunFailure;
import perflab.experiment.run.RunOrchestrator;
import perflab.experiment.run.RunOutcome;

import perflab.core.config.RandomInstant;
import perflab.core.config.RunConfig;

import perflab.core.config.ExperimentSpec;
import perflab.core.result.AtomicFiles;
import perflab.core.result.ExperimentResult;
import perflab.core.result.Json;
import perflab.core.result.RunSummary;
import perflab.core.workload.CapacityMeasure;
import perflab.core.workload.Workload;
import perflab.report.ExperimentTables;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Consumer;

/**
 * Runs an experiment: each configuration {@code repeat} times, interleaved (c1r1 c2r1 ... c1r2 c2r2 ...) so that
 * drift of the machine favours no configuration; after every run rewrites experiment.json, results.csv and
 * report.md, so an interrupted experiment keeps its tables. A configuration whose SUT will not start (a JVM
 * that refuses a flag) is recorded as failed with its reason, and the experiment goes on. Runs already
 * finished in the directory (a complete summary.json) are kept: that is how an experiment resumes.
 */
public final class ExperimentRunner {
    public static final String RESULT_JSON = "experiment.json";
    public static final String RESULTS_CSV = "results.csv";
    public static final String REPORT_MD = "report.md";

    /** A slot of the run order: configuration (0-based) and repetition (1-based). */
    public record Slot(int configuration, int repetition) {
    }

    private final Path perflabHome;
    private final PrintStream console;
    private final boolean quietRuns;
    private final CountDownLatch done = new CountDownLatch(1);
    private volatile boolean interrupted;
    private volatile RunOrchestrator current;
    private RunConfig.Recording recording;
    private Consumer<ExperimentResult> onUpdate = r -> {
    };
    private String startedAt;
    /** How a capacity search judges its trials: the workload's. */
    private CapacityMeasure capacity = CapacityMeasure.DRIVER;

    /**
     * @param console   progress and each run's own output; null for quiet
     * @param quietRuns when true, runs print nothing themselves (only the experiment's progress lines)
     */
    public ExperimentRunner(Path perflabHome, PrintStream console, boolean quietRuns) {
        this.perflabHome = perflabHome;
        this.console = console;
        this.quietRuns = quietRuns;
    }

    /** Records every run as {@code given} says (perflab tune's --history and --label), whatever its configuration says. */
    public ExperimentRunner recordInto(RunConfig.Recording given) {
        this.recording = given;
        return this;
    }

    /** Called with the result after every run (e.g. to write more tables). */
    public ExperimentRunner onUpdate(Consumer<ExperimentResult> listener) {
        this.onUpdate = listener;
        return this;
    }

    /** The interleaved order: every configuration's first repetition, then every second one, and so on. */
    public static List<Slot> order(int configurations, int repeat) {
        List<Slot> slots = new ArrayList<>();
        for (int r = 1; r <= repeat; r++) {
            for (int c = 0; c < configurations; c++) {
                slots.add(new Slot(c, r));
            }
        }
        return slots;
    }

    /** Stops the running run and the experiment (Ctrl-C); waits, bounded, until the tables are written. */
    public void interrupt(Duration wait) {
        interrupted = true;
        RunOrchestrator run = current;
        if (run != null) {
            run.interrupt(wait);
        }
        try {
            done.await(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Runs every run not yet finished in {@code dir}. Returns the exit status: 0 when every run was made and at
     * least one configuration measured, 1 when none did, 130 when interrupted.
     */
    public int run(ExperimentPlan plan, Workload workload, Path dir) throws IOException {
        try {
            return runAll(plan, workload, dir);
        } finally {
            done.countDown();
        }
    }

    private int runAll(ExperimentPlan plan, Workload workload, Path dir) throws IOException {
        startedAt = RunDirectories.previousStart(dir);
        List<ExperimentPlan.Configuration> configs = plan.configurations();
        RunRecord[][] records = new RunRecord[configs.size()][plan.repeat()];
        int finishedBefore = 0;
        for (int c = 0; c < configs.size(); c++) {
            for (int r = 1; r <= plan.repeat(); r++) {
                records[c][r - 1] = RunDirectories.existing(dir, plan.runDirectory(configs.get(c), r), r);
                if (records[c][r - 1].ok()) {
                    finishedBefore++;
                }
            }
        }
        if (finishedBefore > 0) {
            say("perflab: resuming: %d of %d runs already finished", finishedBefore, configs.size() * plan.repeat());
        }
        boolean adaptive = plan.spec().decision().adaptive();
        int rounds = plan.repeat();
        String repeatStop = null;
        write(plan, dir, records, "running", rounds, null);
        String[] startFailure = new String[configs.size()];
        List<Slot> order = order(configs.size(), plan.repeat());
        int toRun = (int) order.stream().filter(s -> !records[s.configuration()][s.repetition() - 1].ok()).count();
        int ran = 0;
        long spentMs = 0;
        for (Slot slot : order) {
            if (interrupted) {
                break;
            }
            int c = slot.configuration();
            int r = slot.repetition();
            if (adaptive && c == 0 && r > AdaptiveRepeat.MIN_ROUNDS) {
                // a round is complete: judge it before the next one starts
                repeatStop = AdaptiveRepeat.stopReason(analyze(plan, dir, records, "running", r - 1, null), r - 1,
                        plan.repeat(), plan.spec().decision().precisionPercent());
                if (repeatStop != null) {
                    rounds = r - 1;
                    say("perflab: %s; no more rounds", repeatStop);
                    break;
                }
            }
            if (records[c][r - 1].ok()) {
                continue;
            }
            ExperimentPlan.Configuration config = configs.get(c);
            String rel = plan.runDirectory(config, r);
            if (startFailure[c] != null) {
                records[c][r - 1] = new RunRecord(r, rel, RunRecord.FAILED, "not run: " + startFailure[c], null, null, null);
                ran++;
                continue;
            }
            say("%nperflab: configuration %d of %d (%s), repetition %d of %s%d; run %d of %s%d to go%s", c + 1,
                    configs.size(), config.variant().name(), r, adaptive ? "at most " : "", plan.repeat(), ran + 1,
                    adaptive ? "at most " : "", toRun, timeLeft(plan, toRun - ran, ran, spentMs));
            Path runDir = dir.resolve(rel);
            RunDirectories.deleteRecursively(runDir);
            long start = System.nanoTime();
            records[c][r - 1] = runOne(config, workload, runDir, rel, r);
            spentMs += (System.nanoTime() - start) / 1_000_000;
            ran++;
            RunRecord rec = records[c][r - 1];
            warnIfStillCompiling(rec);
            if (RunRecord.FAILED.equals(rec.status()) && rec.summary() == null) {
                startFailure[c] = rec.reason();
                say("perflab: configuration %d (%s) failed: %s; the experiment goes on", c + 1,
                        config.variant().name(), rec.reason());
            }
            write(plan, dir, records, "running", rounds, null);
        }
        if (adaptive && repeatStop == null && !interrupted) {
            // the last round ran: it is judged too, and ends the experiment either way
            repeatStop = AdaptiveRepeat.stopReason(analyze(plan, dir, records, "running", rounds, null), rounds,
                    plan.repeat(), plan.spec().decision().precisionPercent());
        }
        boolean allDone = true;
        for (RunRecord[] row : records) {
            for (int r = 0; r < rounds; r++) {
                RunRecord rec = row[r];
                allDone &= !RunRecord.PENDING.equals(rec.status()) && !(interrupted && RunRecord.INCOMPLETE.equals(rec.status()));
            }
        }
        String status = interrupted || !allDone ? "interrupted" : "complete";
        ExperimentResult result = write(plan, dir, records, status, rounds, repeatStop);
        if (console != null) {
            console.println();
            console.print(ExperimentTables.markdown(result));
            console.printf("perflab: experiment results in %s%s%n", dir,
                    "interrupted".equals(status) ? " (interrupted: perflab tune --resume " + dir + " continues it)" : "");
        }
        if ("interrupted".equals(status)) {
            return RunOutcome.INTERRUPTED;
        }
        boolean anyMeasured = result.configurations().stream().anyMatch(x -> x.stats() != null);
        return anyMeasured ? RunOutcome.OK : RunOutcome.FAILED;
    }

    /**
     * Runs a capacity search ({@link ExperimentSpec.RateSearch}): one trial at a time, each rate chosen from the
     * trials before it ({@link CapacitySearch}), each trial's run in {@code <label>/}. Trials already finished in
     * {@code dir} are kept, and since the rates follow from the trials, a resumed search asks for the same ones.
     *
     * @param trialAt the configuration of trial {@code index} (1-based) at a rate, as a setting's value
     * @return 0 when at least one trial measured, 1 when none did, 130 when interrupted
     */
    public int runSearch(ExperimentPlan plan, BiFunction<Integer, String, ExperimentPlan.Configuration> trialAt,
                         Workload workload, Path dir) throws IOException {
        try {
            return searchAll(plan, trialAt, workload, dir);
        } finally {
            done.countDown();
        }
    }

    private int searchAll(ExperimentPlan plan, BiFunction<Integer, String, ExperimentPlan.Configuration> trialAt,
                          Workload workload, Path dir) throws IOException {
        startedAt = RunDirectories.previousStart(dir);
        capacity = workload.capacity();
        ExperimentSpec spec = plan.spec();
        CapacitySearch search = CapacitySearch.of(spec.rateSearch());
        List<ExperimentPlan.Configuration> configs = new ArrayList<>();
        List<RunRecord> records = new ArrayList<>();
        String goal = RateSearchAnalysis.goal(spec, capacity);
        say("perflab: a trial passes with %s", goal);
        while (!interrupted) {
            if (!records.isEmpty() && records.get(records.size() - 1).summary() == null) {
                // the run could not even start: every other rate would fail the same way
                say("perflab: the search stops: %s", records.get(records.size() - 1).reason());
                break;
            }
            List<ExperimentResult.SearchTrial> trials = RateSearchAnalysis.trials(spec, capacity,
                    searchRuns(configs, records));
            OptionalDouble next = search.next(RateSearchAnalysis.rates(trials));
            if (next.isEmpty()) {
                break;
            }
            int index = configs.size() + 1;
            ExperimentPlan.Configuration config = trialAt.apply(index, CapacitySearch.fmt(next.getAsDouble()));
            String rel = config.variant().label();
            RunRecord rec = RunDirectories.existing(dir, rel, 1);
            if (rec.ok()) {
                say("perflab: trial %d (%s %s) already finished", index, config.variant().name(), capacity.rateUnit());
            } else {
                say("%nperflab: trial %d of at most %d: %s %s", index, spec.rateSearch().maxTrials(),
                        config.variant().name(), capacity.rateUnit());
                Path runDir = dir.resolve(rel);
                RunDirectories.deleteRecursively(runDir);
                rec = runOne(config, workload, runDir, rel, 1);
                warnIfStillCompiling(rec);
            }
            configs.add(config);
            records.add(rec);
            ExperimentResult.SearchTrial t = RateSearchAnalysis.judge(index, rel, config.config().load().rate(), rec,
                    spec, capacity);
            if (t != null) {
                say("perflab: trial %d at %s %s: %s", index, CapacitySearch.fmt(t.rate()), capacity.rateUnit(), t.why());
            }
            write(plan, configs, dir, searchRecords(records), "running", 1, null);
        }
        String status = interrupted ? "interrupted" : "complete";
        ExperimentResult result = write(plan, configs, dir, searchRecords(records), status, 1, null);
        if (console != null) {
            console.println();
            console.print(ExperimentTables.markdown(result));
            console.printf("perflab: experiment results in %s%s%n", dir,
                    interrupted ? " (interrupted: perflab tune --resume " + dir + " continues it)" : "");
        }
        if (interrupted) {
            return RunOutcome.INTERRUPTED;
        }
        return records.stream().anyMatch(r -> r.summary() != null) ? RunOutcome.OK : RunOutcome.FAILED;
    }

    private List<ExperimentAnalysis.ConfigurationRuns> searchRuns(List<ExperimentPlan.Configuration> configs,
                                                                  List<RunRecord> records) {
        List<ExperimentAnalysis.ConfigurationRuns> runs = new ArrayList<>();
        for (int i = 0; i < configs.size(); i++) {
            runs.add(new ExperimentAnalysis.ConfigurationRuns(configs.get(i).variant(),
                    configs.get(i).config().load().rate(), List.of(records.get(i))));
        }
        return runs;
    }

    private static RunRecord[][] searchRecords(List<RunRecord> records) {
        return records.stream().map(r -> new RunRecord[]{r}).toArray(RunRecord[][]::new);
    }

    /**
     * Runs of an experiment are compared with each other, so one whose JVM was still compiling in its window
     * is worth a line even when the runs print nothing themselves.
     */
    private void warnIfStillCompiling(RunRecord rec) {
        RunSummary s = rec.summary();
        if (s == null) {
            return;
        }
        if (s.warmup() != null && s.warmup().ranOut()) {
            say("perflab: warning: %s: the warm-up %s", rec.directory(), perflab.report.ConsoleSummary.warmup(s.warmup()));
        }
        s.processes().forEach((name, process) -> {
            if (process.compilingInWindow()) {
                say("perflab: warning: %s: the %s's JIT compiler used %.0f%% of a core in the measured window; "
                        + "give the experiment a longer warmup", rec.directory(), name.equals("sut") ? "SUT" : name,
                        process.jitCpuPercent());
            }
        });
    }

    /**
     * The run recorded as the experiment says ({@link #recordInto}), else as its configuration does, with the
     * experiment's directory: the history groups the experiment's runs by it.
     */
    private RunConfig recorded(RunConfig run, Path runDir, String rel) {
        RunConfig.Recording given = recording != null ? recording : run.recording();
        if (given == null) {
            return run;
        }
        Path experiment = runDir.toAbsolutePath();
        for (int i = 0; i < Path.of(rel).getNameCount() && experiment.getParent() != null; i++) {
            experiment = experiment.getParent();
        }
        return run.withRecording(given.withExperiment(experiment.toString()));
    }

    private RunRecord runOne(ExperimentPlan.Configuration config, Workload workload, Path runDir, String rel, int r) {
        RunOrchestrator run = new RunOrchestrator(perflabHome, runDir.getParent(), quietRuns ? null : console)
                .recordJfr(config.jfr());
        current = run;
        try {
            if (interrupted) {
                return RunRecord.pending(r, rel);
            }
            RunConfig drawn = RandomInstant.repetition(config.config(), config.variant().settings().get("kill-instance-at"), r);
            RunConfig resolved = (drawn != null ? drawn : config.config()).withOut(runDir.toString(), quietRuns);
            RunOutcome outcome = run.run(recorded(resolved, runDir, rel), workload);
            RunSummary s = outcome.summary();
            if (s.complete()) {
                return RunDirectories.record(r, rel, RunRecord.OK, null, s, runDir);
            }
            String status = outcome.exitStatus() == RunOutcome.INTERRUPTED ? RunRecord.INCOMPLETE : RunRecord.FAILED;
            return RunDirectories.record(r, rel, status, s.endReason(), s, runDir);
        } catch (RunFailure e) {
            if (interrupted) {
                return RunRecord.pending(r, rel);
            }
            return new RunRecord(r, rel, RunRecord.FAILED, e.getMessage(), null, null, null);
        } catch (IOException | RuntimeException e) {
            if (interrupted) {
                return RunRecord.pending(r, rel);
            }
            return new RunRecord(r, rel, RunRecord.FAILED, String.valueOf(e.getMessage()), null, null, null);
        } finally {
            current = null;
        }
    }

    /**
     * The result of the first {@code rounds} repetitions (an adaptive experiment's later rounds are not part of it
     * until they run); writes nothing.
     */
    private ExperimentResult analyze(ExperimentPlan plan, Path dir, RunRecord[][] records, String status, int rounds,
                                     String repeatStop) {
        return analyze(plan, plan.configurations(), dir, records, status, rounds, repeatStop);
    }

    private ExperimentResult analyze(ExperimentPlan plan, List<ExperimentPlan.Configuration> configs, Path dir,
                                     RunRecord[][] records, String status, int rounds, String repeatStop) {
        List<ExperimentAnalysis.ConfigurationRuns> runs = new ArrayList<>();
        for (int c = 0; c < configs.size(); c++) {
            ExperimentPlan.Configuration config = configs.get(c);
            runs.add(new ExperimentAnalysis.ConfigurationRuns(config.variant(), config.config().load().rate(),
                    List.of(records[c]).subList(0, rounds)));
        }
        ExperimentSpec spec = plan.spec();
        return ExperimentAnalysis.analyze(spec, new ExperimentAnalysis.Header(spec.name(),
                spec.description(), spec.workload(), plan.stack(), plan.operation(), rounds,
                dir.toAbsolutePath().toString(), startedAt, Instant.now().toString(), status, repeatStop), runs, capacity);
    }

    /** Analyses and writes the tables of the first {@code rounds} repetitions. */
    private ExperimentResult write(ExperimentPlan plan, Path dir, RunRecord[][] records, String status, int rounds,
                                   String repeatStop) throws IOException {
        return write(plan, plan.configurations(), dir, records, status, rounds, repeatStop);
    }

    private ExperimentResult write(ExperimentPlan plan, List<ExperimentPlan.Configuration> configs, Path dir,
                                   RunRecord[][] records, String status, int rounds, String repeatStop) throws IOException {
        ExperimentResult result = analyze(plan, configs, dir, records, status, rounds, repeatStop);
        Json.write(dir.resolve(RESULT_JSON), result);
        AtomicFiles.write(dir.resolve(RESULTS_CSV), ExperimentTables.csv(result));
        AtomicFiles.write(dir.resolve(REPORT_MD), ExperimentTables.markdown(result) + ExperimentTables.profiles(result, dir));
        // report.html too after every run, so an interrupted experiment keeps its charts
        perflab.report.ExperimentReport.writeQuietly(dir, null);
        onUpdate.accept(result);
        return result;
    }

    /** "; about 4 min left", from this session's runs, or before any from the runs' warm-up and duration. */
    public static String timeLeft(ExperimentPlan plan, int remaining, int ran, long spentMs) {
        long perRunMs;
        String unknown = "";
        if (ran > 0 && spentMs > 0) {
            perRunMs = spentMs / ran;
        } else {
            var load = plan.configurations().get(0).config().load();
            if (load.duration() == null) {
                return "";
            }
            long warmupMs = load.warmup().toMillis();
            if (load.warmupRequests() > 0) {
                // a warm-up counted in requests lasts as long as the server takes to answer them: known only at a rate
                warmupMs = load.rate() > 0 ? (long) (load.warmupRequests() * 1000 / load.rate()) : 0;
                unknown = load.rate() > 0 ? "" : String.format(Locale.ROOT, ", plus each run's %,d warm-up requests",
                        load.warmupRequests());
            }
            perRunMs = load.duration().toMillis() + warmupMs + 5_000;
        }
        long s = perRunMs * remaining / 1000;
        return "; about " + (s >= 3600 ? String.format(Locale.ROOT, "%dh %02dmin", s / 3600, s / 60 % 60)
                : s >= 60 ? String.format(Locale.ROOT, "%dmin %02ds", s / 60, s % 60) : s + " s") + " left" + unknown;
    }

    private void say(String format, Object... args) {
        if (console != null) {
            console.printf(format + "%n", args);
        }
    }
}
