package perflab.cli;

import perflab.core.config.ExperimentSpec;
import perflab.core.config.RunConfig;
import perflab.core.workload.Workload;
import perflab.core.workload.Workloads;
import perflab.experiment.study.ExperimentPlan;
import perflab.experiment.study.ExperimentRunner;
import perflab.experiment.run.RunDirectory;
import perflab.experiment.study.Variant;
import perflab.experiment.study.Variants;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

@Command(name = "tune", mixinStandardHelpOptions = true,
        description = {"Run an experiment: every configuration of a matrix, cumulative steps, or a rate sweep, each "
                + "repeated and interleaved; per configuration mean and 95 %% interval of throughput and p99, GC, SUT CPU, "
                + "the gain over the baseline and its significance (Welch), and the best configuration.",
                "Writes results/<time>-tune-<name>/: experiment.yaml, command, environment.json, experiment.json, results.csv, report.md and one "
                        + "run directory per run. Format and outputs: docs/experiments.md.",
                "From a file:  perflab tune experiments/heap-gc.yaml",
                "From flags:   perflab tune WORKLOAD --heap 256m,1g --gc parallel,g1,zgc --repeat 3 --duration 30s",
                "Every `perflab run` flag is accepted; a comma list on one of " + TuneCommand.SPLIT_TEXT
                        + " makes a matrix dimension (a list on --rate alone makes a rate sweep).",
                "Capacity search:  perflab tune WORKLOAD --search 1000..16000 --goal-ms 10 --duration 60s (the highest "
                        + "rate that passes, RFC 7502-style: doubling, then bisection; the workload says what passing means)",
                "Continue an interrupted experiment:  perflab tune --resume results/<dir>"})
final class TuneCommand implements Callable<Integer> {
    static final String SPLIT_TEXT = "--heap, --gc, --java-home, --server-threads, --keepalive, "
            + "--max-requests-per-connection, --max-request-bytes, --access-log, --server-metrics, --clients, --http, "
            + "--rate, --stack, --operation, a workload setting that is a dimension (`perflab list`), or with --server a "
            + "setting of the server file (--set threads=50,200)";
    /** perflab's run flags whose comma lists make a matrix from the command line (--jvm and --cpus take commas themselves). */
    static final Set<String> CORE_DIMENSIONS = Set.of("heap", "gc", "java-home", "jdk", "server-threads", "keepalive",
            "max-requests-per-connection", "max-request-bytes", "access-log", "server-metrics", "clients", "http", "rate",
            "stack", "operation");

    /** Whether a comma list on this flag makes a matrix dimension: perflab's own, or a workload's that says so. */
    static boolean isDimension(Workload workload, String flag) {
        if (CORE_DIMENSIONS.contains(flag)) {
            return true;
        }
        return workload.settings().stream().anyMatch(s -> s.name().equals(flag) && s.dimension());
    }
    static final String EXPERIMENT_FILE = "experiment.yaml";
    static final String COMMAND_FILE = "command";
    static final String ENVIRONMENT_FILE = "environment.json";

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec command;

    @Parameters(paramLabel = "FILE | WORKLOAD [RUN FLAGS]", arity = "0..*",
            description = "An experiment file (YAML), or a workload followed by `perflab run` flags.")
    List<String> words = new ArrayList<>();

    @Option(names = "--repeat", paramLabel = "N|auto[:MAX]", description = "Runs per configuration (default: the file's, "
            + "else " + ExperimentFile.DEFAULT_REPEAT + "); auto: interleaved rounds until the leading configurations' "
            + "95%% intervals separate, or every interval is within ±3%% of its mean, or MAX rounds (10).")
    String repeat;

    @Option(names = "--p99-ms", paramLabel = "MS", description = "Latency goal of the best configuration: mean p99 at most MS.")
    String p99Ms;

    @Option(names = "--alpha", paramLabel = "P", description = "A best configuration must beat the baseline with "
            + "Welch's p below P (default: the file's, else 0.05).")
    String alpha;

    @Option(names = "--min-effect", paramLabel = "PERCENT", description = "... and by at least PERCENT more throughput "
            + "(default: the file's, else 2%%); a smaller gain is not worth a configuration change.")
    String minEffect;

    @Option(names = "--search", paramLabel = "START[..MAX]", description = "A capacity search instead of a matrix: "
            + "trials from START (doubling until one fails, at most MAX, then bisection) for the highest rate that "
            + "passes: zero failures, the rate carried, and the workload's latency goal (docs/experiments.md).")
    String search;

    @Option(names = "--goal-ms", paramLabel = "MS", description = "With --search: the latency goal on the workload's "
            + "capacity latency (by default the driver's p99, with no goal; a workload may judge its own latency with "
            + "a default goal: `perflab tune WORKLOAD --search N --dry-run` says which).")
    String goalMs;

    @Option(names = "--resolution", paramLabel = "PERCENT", description = "With --search: stop when the interval "
            + "between the rate that passed and the one that failed is this narrow (default 5%%).")
    String resolution;

    @Option(names = "--name", paramLabel = "NAME", description = "Names the experiment's directory (default: the file's name, or the swept settings).")
    String name;

    @Option(names = "--resume", paramLabel = "DIR", description = "Continue the interrupted experiment in DIR: finished runs are kept, the others run.")
    Path resume;

    @Option(names = "--out", paramLabel = "DIR", description = "Experiment directory, new or empty (default: results/<time>-tune-<name>).")
    String out;

    @Option(names = "--dry-run", description = "Validate the experiment and list its configurations and estimated time; run nothing.")
    boolean dryRun;

    @Option(names = "--quiet", description = "Print only the experiment's progress and table, not each run's output.")
    boolean quiet;

    @Option(names = "--history", paramLabel = "FILE|off", description = "Record every run in this results history "
            + "(default: $PERFLAB_HISTORY, else ~/.local/share/perflab/history.sqlite); off: in none.")
    String history;

    @Option(names = "--label", paramLabel = "TEXT", description = "What the experiment measures, kept with each of its "
            + "runs in run.json and the history (the commit or version under test).")
    String label;

    @Option(names = "--slo", paramLabel = "OBJECTIVES", description = "Gate the experiment: every configuration's "
            + "means over its repeats must meet these objectives, e.g. \"p99<5ms, errors=0\" (exit 3 if one misses; "
            + "docs/history.md).")
    String slo;

    @Option(names = "--no-regression", description = "Gate the experiment on its history: exit 4 when a "
            + "configuration's repeats are worse in throughput, p99 or CPU per request than its earlier runs (Welch, "
            + "p < 0.01, at least 2%%).")
    boolean noRegression;

    @Option(names = "--junit", paramLabel = "FILE", description = "With --slo or --no-regression: write the verdict as "
            + "JUnit XML, a test case per configuration and objective or check.")
    Path junit;

    @Option(names = "--metrics-export", paramLabel = "prometheus=[HOST:]PORT", description = "Serve each run's seconds "
            + "for a Prometheus server to scrape while it drives, labelled with the experiment and the run "
            + "(docs/history.md).")
    String metricsExport;

    /** Where the experiment came from, at the start of its error messages. */
    private String where = "perflab tune";

    @Override
    public Integer call() throws Exception {
        // checked before anything is written: a bad --label is refused, not found after the experiment's directory
        perflab.core.config.RunConfig.Recording recording = LoadOptions.recording(history, label, metricsExport);
        Gate gate = Gate.of(slo, noRegression, junit, recording);
        ExperimentSpec spec;
        Path dir;
        if (resume != null) {
            if (!words.isEmpty() || repeat != null || p99Ms != null || name != null || out != null || alpha != null
                    || minEffect != null || search != null || goalMs != null || resolution != null) {
                throw new IllegalArgumentException("--resume takes only the experiment's directory (and --quiet, --history, "
                        + "--label, --slo, --no-regression, --junit, --metrics-export)");
            }
            Path file = resume.resolve(EXPERIMENT_FILE);
            if (!Files.isRegularFile(file)) {
                throw new IllegalArgumentException("--resume: " + resume + " has no " + EXPERIMENT_FILE
                        + "; give the directory of an experiment that `perflab tune` started");
            }
            spec = ExperimentFile.read(file);
            where = file.toString();
            dir = resume;
        } else {
            spec = spec();
            dir = null;
        }
        Workload workload = Workloads.named(spec.workload());
        if (gate != null && spec.rateSearch() != null) {
            throw new IllegalArgumentException("--slo and --no-regression judge an experiment's configurations; a "
                    + "capacity search has none to judge (gate its capacity with `perflab run --rate N --slo ...`)");
        }
        if (resume == null && !spec.settings().containsKey("seed")) {
            // one seed for the whole experiment: every configuration sends the same payloads, and a resumed run too
            Map<String, String> settings = new LinkedHashMap<>(spec.settings());
            settings.put("seed", Long.toString(new java.util.SplittableRandom().nextLong(1, Long.MAX_VALUE)));
            spec = withSettings(spec, settings);
        }
        ExperimentPlan plan = plan(where, spec, workload);
        if (dryRun && spec.rateSearch() != null) {
            ExperimentSpec.RateSearch rs = spec.rateSearch();
            System.out.printf("perflab: experiment %s (rate-search): from %s %s%s, at most %d trials; a trial passes with %s%n",
                    spec.name(), rs.start(), workload.capacity().rateUnit(), rs.max() == null ? "" : " up to " + rs.max(),
                    rs.maxTrials(), perflab.experiment.study.RateSearchAnalysis.goal(spec, workload.capacity()));
            return 0;
        }
        if (dryRun) {
            System.out.printf("perflab: experiment %s (%s): %d configurations x %d repetitions%s%n", spec.name(),
                    spec.kind().key(), plan.configurations().size(), spec.repeat(),
                    ExperimentRunner.timeLeft(plan, plan.configurations().size() * spec.repeat(), 0, 0).replace("left", "in all"));
            for (ExperimentPlan.Configuration c : plan.configurations()) {
                System.out.printf("  %s  %s%n", c.variant().label(), c.variant().name());
            }
            return 0;
        }
        if (dir == null) {
            spec = withSettings(spec, resolvedSettings(spec, plan));
            plan = new ExperimentPlan(spec, plan.stack(), plan.operation(), plan.configurations(), false);
            dir = out != null ? RunDirectory.explicit(Path.of(out))
                    : RunDirectory.create(Perflab.resultsRoot(), "tune", spec.name(), LocalDateTime.now());
            ExperimentFile.write(dir.resolve(EXPERIMENT_FILE), spec);
        }
        if (spec.rateSearch() == null) {
            System.out.printf("perflab: experiment %s: %d configurations x %d repetitions into %s%n", spec.name(),
                    plan.configurations().size(), spec.repeat(), dir);
        } else {
            System.out.printf("perflab: experiment %s: a rate search of at most %d trials into %s%n", spec.name(),
                    spec.rateSearch().maxTrials(), dir);
        }
        recordCommand(dir, resume != null);
        ExperimentRunner runner = new ExperimentRunner(Perflab.home(), System.out, quiet).recordInto(recording);
        Shutdown.onSignal(() -> runner.interrupt(Duration.ofSeconds(60)));
        if (spec.rateSearch() != null) {
            ExperimentSpec s = spec;
            String w = where;
            return runner.runSearch(plan, (index, rate) -> configuration(w, workload, Variants.searchTrial(s, index, rate)),
                    workload, dir);
        }
        int status = runner.run(plan, workload, dir);
        return gate == null ? status : gate.judge(status, dir, recording);
    }

    /**
     * What a reader of the experiment's figures needs at the top of its directory, beside experiment.json: the
     * command that ran it ({@value #COMMAND_FILE}, one line per start: a resume adds its own) and the machine and
     * perflab commit it ran on ({@value #ENVIRONMENT_FILE}, as each run's run.json has them). Bench scripts used to
     * write these by hand beside a tune.
     */
    private void recordCommand(Path dir, boolean resumed) throws java.io.IOException {
        List<String> args = command.commandLine().getParseResult().originalArgs();
        StringBuilder line = new StringBuilder("./perflab");
        for (String a : args) {
            line.append(' ').append(perflab.experiment.run.RepeatCommand.quote(a));
        }
        Path file = dir.resolve(COMMAND_FILE);
        String before = resumed && Files.isRegularFile(file) ? Files.readString(file) : "";
        perflab.core.result.AtomicFiles.write(file, before + line + "\n");
        Path environment = dir.resolve(ENVIRONMENT_FILE);
        if (!Files.exists(environment)) {
            perflab.core.result.Json.write(environment, perflab.experiment.run.RunEnvironment.describe(Perflab.home()));
        }
    }

    /** Every configuration made into a run configuration before anything runs: a bad value stops here. */
    static ExperimentPlan plan(String where, ExperimentSpec spec, Workload workload) {
        List<ExperimentPlan.Configuration> configs = new ArrayList<>();
        for (Variant v : Variants.of(spec)) {
            configs.add(configuration(where, workload, v));
        }
        if (spec.rateSearch() != null && spec.rateSearch().max() != null) {
            // the highest rate the search may ask for is checked now, not hours into it
            configuration(where, workload, Variants.searchTrial(spec, 1, spec.rateSearch().max()));
        }
        RunConfig first = configs.get(0).config();
        return new ExperimentPlan(spec, first.stack(), first.operation(), configs, false);
    }

    private static ExperimentPlan.Configuration configuration(String where, Workload workload, Variant v) {
        RunSettings.Resolved r = RunSettings.resolve(where + ", configuration " + v.index() + " (" + v.name() + ")",
                workload.name(), v.settings());
        return new ExperimentPlan.Configuration(v, r.config(), r.jfr());
    }

    /** The shared settings with the stack and operation the runs really use, for experiment.yaml. */
    private static Map<String, String> resolvedSettings(ExperimentSpec spec, ExperimentPlan plan) {
        Map<String, String> s = new LinkedHashMap<>();
        if (!spec.settings().containsKey("stack") && !varies(spec, "stack") && !spec.settings().containsKey("server")
                && !varies(spec, "server")) {
            s.put("stack", plan.stack());
        }
        if (!spec.settings().containsKey("operation") && !varies(spec, "operation")) {
            s.put("operation", plan.operation());
        }
        s.putAll(spec.settings());
        return s;
    }

    private static boolean varies(ExperimentSpec spec, String setting) {
        return spec.matrix().containsKey(setting) || spec.steps().stream().anyMatch(st -> st.settings().containsKey(setting));
    }

    private static ExperimentSpec withSettings(ExperimentSpec s, Map<String, String> settings) {
        return new ExperimentSpec(s.name(), s.description(), s.workload(), settings, s.repeat(), s.matrix(), s.steps(),
                s.rateSweep(), s.objective(), s.decision(), s.rateSearch());
    }

    /** The experiment from a file or from the command line's flags. */
    private ExperimentSpec spec() {
        if (words.isEmpty()) {
            throw new IllegalArgumentException("give an experiment file or a workload, e.g. perflab tune WORKLOAD --gc parallel,g1 (perflab list names the workloads; see: perflab tune --help)");
        }
        String first = words.get(0);
        if (first.startsWith("-")) {
            throw new IllegalArgumentException("unknown option '" + first + "' before the experiment file or workload (see: perflab tune --help)");
        }
        // a scenario file is a workload, given with flags like any other; another file is an experiment file
        boolean isFile = !Workloads.isWorkloadFile(Path.of(first))
                && (first.endsWith(".yaml") || first.endsWith(".yml") || Files.isRegularFile(Path.of(first)));
        ExperimentSpec spec;
        if (isFile) {
            if (words.size() > 1) {
                throw new IllegalArgumentException("'" + words.get(1) + "': with an experiment file, give the settings in the file");
            }
            if (search != null || goalMs != null || resolution != null) {
                throw new IllegalArgumentException("--search, --goal-ms and --resolution: with an experiment file, give "
                        + "the search in the file (rate-search:)");
            }
            spec = ExperimentFile.read(Path.of(first));
            where = Path.of(first).getFileName().toString();
        } else {
            spec = fromFlags(first, words.subList(1, words.size()));
            if (search != null) {
                spec = searching(spec);
            } else if (goalMs != null || resolution != null) {
                throw new IllegalArgumentException("--goal-ms and --resolution go with --search START[..MAX]");
            }
        }
        ExperimentSpec.Objective objective = p99Ms == null ? spec.objective() : ExperimentFile.objective("--p99-ms", "p99", p99Ms);
        String n = name == null ? spec.name() : name;
        if (!n.matches("[A-Za-z0-9][A-Za-z0-9._-]{0,63}")) {
            throw new IllegalArgumentException("--name: '" + n + "' must be letters, digits, '.', '_' or '-' (at most 64)");
        }
        ExperimentFile.Repeat rep = repeat == null ? new ExperimentFile.Repeat(spec.repeat(), spec.decision().adaptive())
                : ExperimentFile.repeat("--repeat", repeat);
        ExperimentSpec.Decision given = ExperimentFile.decision("perflab tune",
                alpha != null ? alpha : minEffect != null ? Double.toString(spec.decision().alpha()) : null,
                minEffect != null ? minEffect : alpha != null ? Double.toString(spec.decision().minEffectPercent()) : null);
        ExperimentSpec.Decision decision = (given != null ? given : spec.decision()).adaptive(rep.adaptive());
        return new ExperimentSpec(n, spec.description(), spec.workload(), spec.settings(),
                spec.rateSearch() != null ? 1 : rep.times(), spec.matrix(), spec.steps(), spec.rateSweep(), objective,
                decision, spec.rateSearch());
    }

    /** The flags' experiment made a capacity search: one configuration, its rate chosen trial by trial. */
    private ExperimentSpec searching(ExperimentSpec s) {
        if (!s.matrix().isEmpty() || s.rateSweep() != null || s.settings().containsKey("rate")) {
            throw new IllegalArgumentException("--search: a capacity search sets the rate itself and runs one configuration; "
                    + "drop --rate and the comma lists");
        }
        if (repeat != null) {
            throw new IllegalArgumentException("--repeat: a capacity search runs each rate once (and confirms its "
                    + "capacity); run the search again to see its spread");
        }
        String[] range = search.split("\\.\\.", -1);
        if (range.length > 2 || range[0].isBlank() || (range.length == 2 && range[1].isBlank())) {
            throw new IllegalArgumentException("--search: '" + search + "': give START or START..MAX, e.g. 50..2000");
        }
        ExperimentSpec.RateSearch rs = ExperimentFile.rateSearch("--search", range[0], range.length == 2 ? range[1] : null,
                resolution, goalMs, true, null);
        return new ExperimentSpec("capacity", s.description(), s.workload(), s.settings(), 1, s.matrix(), s.steps(), null,
                s.objective(), s.decision(), rs);
    }

    /** `perflab tune WORKLOAD --heap 256m,1g --gc g1,zgc --duration 30s`: comma lists make the matrix. */
    static ExperimentSpec fromFlags(String workload, List<String> args) {
        Workload w = Workloads.named(workload);
        Map<String, String> settings = new LinkedHashMap<>();
        Map<String, List<String>> matrix = new LinkedHashMap<>();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (!arg.startsWith("--")) {
                throw new IllegalArgumentException("'" + arg + "' is not a flag; give the workload first, then `perflab run` flags (see: perflab tune --help)");
            }
            String flag = arg.substring(2);
            String value = null;
            int eq = flag.indexOf('=');
            if (eq > 0) {
                value = flag.substring(eq + 1);
                flag = flag.substring(0, eq);
            }
            RunSettings.checkName("perflab tune", flag);
            if (RunSettings.isFlag(flag)) {
                settings.put(flag, value == null ? "true" : value);
                continue;
            }
            if (value == null) {
                if (i + 1 >= args.size()) {
                    throw new IllegalArgumentException("--" + flag + " needs a value");
                }
                value = args.get(++i);
            }
            if (flag.equals("set")) {
                // --set threads=50,200: the server file's setting threads, a dimension of its own (set.threads)
                int at = value.indexOf('=');
                if (at <= 0) {
                    throw new IllegalArgumentException("--set " + value + ": give NAME=VALUE or NAME=V1,V2");
                }
                flag = RunSettings.SERVER_SETTING + value.substring(0, at).trim();
                value = value.substring(at + 1).trim();
                RunSettings.checkName("perflab tune", flag);
            }
            if ((isDimension(w, flag) || flag.startsWith(RunSettings.SERVER_SETTING)) && value.contains(",")) {
                List<String> values = Arrays.stream(value.split(",")).map(String::trim).toList();
                if (values.stream().anyMatch(String::isEmpty) || values.size() != values.stream().distinct().count()) {
                    throw new IllegalArgumentException("--" + flag + ": '" + value + "' has an empty or repeated value");
                }
                matrix.put(flag, values);
            } else {
                settings.put(flag, value);
            }
        }
        ExperimentSpec.RateSweep sweep = null;
        if (matrix.size() == 1 && matrix.containsKey("rate")) {
            sweep = new ExperimentSpec.RateSweep(matrix.remove("rate"));
        }
        String name = matrix.isEmpty() ? (sweep != null ? "rate-sweep" : workload) : String.join("-", matrix.keySet());
        return new ExperimentSpec(name, null, workload, settings, ExperimentFile.DEFAULT_REPEAT, matrix, List.of(), sweep, null);
    }
}
