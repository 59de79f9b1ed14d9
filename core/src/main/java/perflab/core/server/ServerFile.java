package perflab.core.server;

import perflab.core.workload.WorkloadSetting;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A server the user declares in a YAML file (docs/servers.md), which perflab starts, watches and tunes as the system
 * under test: any program, a product's distribution with its own start script, a JVM or not. Plain data, read and
 * checked once where it comes in (the CLI's reader); the values keep their {@code {placeholders}}, filled at start.
 *
 * @param name        what the server is called in results (the file's name without .yaml by default)
 * @param source      the file it was read from, as the user gave it
 * @param content     the file's text, kept for run.json
 * @param workload    the workload whose traffic it serves by default ({@code perflab run FILE}); null: give one
 * @param description one line for listings; may be empty
 * @param command     the program and its arguments
 * @param home        where the server's files are; null: none (a program on the PATH)
 * @param env         environment variables for the server's process, besides perflab's own
 * @param files       files of the home copied into the run's copy with their placeholders filled in
 * @param templates   files written into the run's copy of the home (by their path there) from templates of the
 *                    user's (absolute paths, beside the server file), their placeholders filled in: a product's
 *                    own configuration file as the run needs it (Tomcat's conf/server.xml)
 * @param ports       the names of the loopback ports perflab chooses for it (the first is {@code {port}})
 * @param url         the service URL the traffic targets; null: the first port and the workload's path
 * @param ready       how perflab knows it serves
 * @param stop        how it is asked to stop
 * @param jvm         how JVM flags reach the server's JVM
 * @param settings    the server's own knobs, each a flag and an axis of perflab tune
 * @param companions  companions of the workload the server asks for, by name
 */
public record ServerFile(String name, String source, String content, String workload, String description,
                         List<String> command, Home home, Map<String, String> env, List<String> files,
                         Map<String, String> templates, List<String> ports, String url, Ready ready, Stop stop, Jvm jvm,
                         List<WorkloadSetting> settings, List<String> companions) {
    /**
     * A placeholder: {@code {name}} or {@code {a.b}}, not right after a letter, a digit, {@code $}, {@code #} or
     * {@code %}: {@code ${catalina.base}}, {@code #{bean.x}} and a logging pattern's {@code %d{ISO8601}} or
     * {@code %X{trace.id}} in a product's own files are the product's syntax and are left as they are.
     */
    public static final Pattern PLACEHOLDER = Pattern.compile("(?<![$#%A-Za-z0-9])\\{([A-Za-z][A-Za-z0-9_-]*(?:\\.[A-Za-z][A-Za-z0-9_-]*)?)}");
    /** The placeholders every server file may use, besides its ports, settings and companions. */
    public static final Set<String> BUILT_IN = Set.of("port", "home", "runDir", "jvm", "javaHome", "fileDir");

    public ServerFile {
        Objects.requireNonNull(name, "name");
        command = List.copyOf(command);
        env = Map.copyOf(env);
        files = List.copyOf(files);
        templates = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(templates));
        ports = List.copyOf(ports);
        settings = List.copyOf(settings);
        companions = List.copyOf(companions);
    }

    /** Where the server's files come from: a directory, or a distribution from Maven that perflab unpacks once. */
    public record Home(String directory, String maven) {
        public Home {
            if ((directory == null) == (maven == null)) {
                throw new IllegalArgumentException("a home is a directory or a Maven coordinate, not both or neither");
            }
        }
    }

    /** How perflab knows the server serves, within {@code timeout}. */
    public record Ready(Kind kind, String target, int minStatus, int maxStatus, Duration timeout) {
        public enum Kind {
            /** an HTTP GET of {@code target} (a URL with placeholders) answering a status within the range */
            HTTP,
            /** a line of its output matching {@code target}, a regular expression */
            LINE,
            /** the port named {@code target} open on loopback */
            TCP
        }
    }

    /** How the server is asked to stop: a signal, or a command; either way killed (its whole tree) after the grace. */
    public record Stop(String signal, List<String> command, Duration grace) {
        public static final List<String> SIGNALS = List.of("TERM", "INT", "HUP", "QUIT", "KILL");

        public Stop {
            command = command == null ? List.of() : List.copyOf(command);
        }
    }

    /** How JVM flags (--heap, --gc, --jvm, the GC log perflab adds) reach the server's JVM. */
    public record Jvm(Mode mode, String target) {
        public enum Mode {
            /** through the {@code {jvm}} placeholder of the command or an environment variable */
            PLACEHOLDER,
            /** as the value of the environment variable {@code target} (CATALINA_OPTS, JAVA_TOOL_OPTIONS) */
            ENV,
            /** one flag a line in the file {@code target} of the run's copy of the home (Liberty's jvm.options) */
            FILE,
            /** the server is no JVM: JVM flags are refused, JVM figures are left out */
            NONE
        }
    }

    /** The names of its own settings. */
    public Set<String> settingNames() {
        Set<String> names = new java.util.LinkedHashSet<>();
        settings.forEach(s -> names.add(s.name()));
        return names;
    }

    /** Its setting {@code name}; null when it has none of that name. */
    public WorkloadSetting setting(String name) {
        return settings.stream().filter(s -> s.name().equals(name)).findFirst().orElse(null);
    }

    /** The placeholders in {@code text}, in order. */
    public static List<String> placeholders(String text) {
        Matcher m = PLACEHOLDER.matcher(text);
        List<String> found = new java.util.ArrayList<>();
        while (m.find()) {
            found.add(m.group(1));
        }
        return found;
    }

    /** Throws IllegalArgumentException, in one line, for a setting without a default that {@code given} lacks. */
    public void requireSettings(Map<String, String> given) {
        for (WorkloadSetting s : settings) {
            if (s.defaultValue() == null && !given.containsKey(s.name())) {
                throw new IllegalArgumentException(name + " needs its setting " + s.name() + ", which has no default: "
                        + "give it with --set " + s.name() + "=" + s.valueLabel() + (s.help() == null ? "" : " (" + s.help() + ")"));
            }
        }
    }

    /** The placeholders a file may use: the built-in ones, {@code ports.NAME}, its settings and its companions'. */
    public static Set<String> known(List<String> ports, List<String> settings, List<String> companions) {
        Set<String> known = new java.util.TreeSet<>(BUILT_IN);
        ports.forEach(p -> known.add("ports." + p));
        known.addAll(settings);
        companions.forEach(c -> {
            known.add(c + ".port");
            known.add(c + ".url");
        });
        return known;
    }
}
