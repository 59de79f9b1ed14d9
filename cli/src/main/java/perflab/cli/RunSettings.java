package perflab.cli;

import perflab.core.config.RunConfig;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * An experiment's settings are `perflab run`'s flags without the dashes: one set of names and one validation.
 * A configuration's settings become a run configuration by parsing them as `perflab run` arguments.
 */
final class RunSettings {
    /** `jdk: 25` names a JDK under /usr/lib/jvm (or a directory) instead of `java-home: DIR`. */
    static final String JDK = "jdk";
    /** Run flags an experiment sets itself (perflab tune's own --history and --label record every run). */
    private static final Set<String> EXCLUDED = Set.of("out", "quiet", "help", "version", "history", "label", "slo",
            "no-regression", "junit", "metrics-export");
    static final Path JVM_DIR = Path.of("/usr/lib/jvm");

    /** A configuration's run and whether to record a flight recording. */
    record Resolved(RunConfig config, boolean jfr) {
    }

    private RunSettings() {
    }

    private static List<OptionSpec> options() {
        return WorkloadOptions.commandLine(new RunCommand()).getCommandSpec().options();
    }

    /** Every setting name an experiment accepts, sorted. */
    static Set<String> names() {
        Set<String> names = new TreeSet<>();
        for (OptionSpec o : options()) {
            String n = o.longestName().replaceFirst("^--", "");
            if (!EXCLUDED.contains(n)) {
                names.add(n);
            }
        }
        names.add(JDK);
        return names;
    }

    /** Settings that are flags without a value (`jfr: true`). */
    static boolean isFlag(String name) {
        return options().stream().anyMatch(o -> o.longestName().equals("--" + name) && o.arity().max() == 0);
    }

    /**
     * A server file's own setting as an experiment names it: {@code set.threads: 50} is {@code --set threads=50}, so
     * that each of them can be a dimension of its own ({@code --set threads=50,200} on perflab tune's command line).
     */
    static final String SERVER_SETTING = "set.";

    static void checkName(String where, String name) {
        if (name.startsWith(SERVER_SETTING) && name.substring(SERVER_SETTING.length()).matches("[a-z][a-z0-9-]*")) {
            return; // the server file, read when the run is resolved, says whether it has that setting
        }
        if (!names().contains(name)) {
            throw new IllegalArgumentException(where + ": unknown setting '" + name + "'; accepted: "
                    + String.join(", ", names()));
        }
    }

    /** The run these settings describe; {@code where} starts every error message ("experiment.yaml, matrix"). */
    static Resolved resolve(String where, String workload, Map<String, String> settings) {
        List<String> args = new ArrayList<>();
        args.add(workload);
        for (Map.Entry<String, String> e : settings.entrySet()) {
            String name = e.getKey();
            checkName(where, name);
            String value = e.getValue();
            if (name.equals(JDK)) {
                args.add("--java-home");
                args.add(jdk(where, value));
            } else if (name.startsWith(SERVER_SETTING)) {
                args.add("--set");
                args.add(name.substring(SERVER_SETTING.length()) + "=" + value);
            } else if (isFlag(name)) {
                String v = value.trim().toLowerCase(Locale.ROOT);
                if (v.equals("true") || v.equals("on")) {
                    args.add("--" + name);
                } else if (!v.equals("false") && !v.equals("off")) {
                    throw new IllegalArgumentException(where + ": " + name + ": '" + value + "' is not true or false");
                }
            } else {
                if (name.equals("clients") && value.contains(",")) {
                    throw new IllegalArgumentException(where + ": clients: '" + value
                            + "' is a list; give one number here and the list under matrix:");
                }
                args.add("--" + name);
                args.add(value);
            }
        }
        RunCommand run = new RunCommand();
        try {
            WorkloadOptions.commandLine(run).parseArgs(args.toArray(String[]::new));
            return new Resolved(run.toConfig(), run.sut.jfr);
        } catch (CommandLine.ParameterException | IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage().replace('\n', ' '));
        }
    }

    /** A JDK by feature release ("17", "25": the JDK under /usr/lib/jvm whose name says so) or by directory. */
    static String jdk(String where, String value) {
        String v = value.trim();
        if (!v.matches("\\d+")) {
            return v;
        }
        try (Stream<Path> dirs = Files.list(JVM_DIR)) {
            return dirs.filter(d -> d.getFileName().toString().matches(".*-" + v + "(-.*)?")
                            && Files.isExecutable(d.resolve("bin/java")) && !Files.isSymbolicLink(d))
                    .map(Path::toString).sorted().findFirst()
                    .orElseThrow(() -> new IllegalArgumentException(where + ": jdk: no JDK " + v + " under " + JVM_DIR
                            + "; give its directory, e.g. jdk: /usr/lib/jvm/temurin-" + v + "-jdk-amd64"));
        } catch (IOException e) {
            throw new IllegalArgumentException(where + ": jdk: cannot list " + JVM_DIR + " (" + e.getMessage()
                    + "); give the JDK's directory");
        }
    }
}
