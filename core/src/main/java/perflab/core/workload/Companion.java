package perflab.core.workload;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * A process a workload needs beside its SUT (the claims back end, a database, a SIP phone), started, watched
 * for readiness, sampled and stopped by perflab like the SUT, with its output in the run directory
 * ({@code <name>.out}, {@code <name>.err}) and its figures under summary.json's {@code processes.<name>}.
 *
 * <p>A JVM companion runs {@code mainClass} on the stack classpath of {@code moduleDir} (built into
 * {@code <moduleDir>/target/stack/} like a stack's), with the SUT's JDK and CPU list, its own GC log
 * ({@code <name>-gc.log}), and follows the SUT's process protocol ({@link perflab.core.sut.SutBootstrap}):
 * ready on {@code PERFLAB-READY port=N ...}, gone when its stdin closes. A program companion runs
 * {@code command} and is ready when it prints a line starting with {@code readyLine} (or at once when null).
 *
 * <p>Arguments may name ports of processes started before it: {@code {backend.port}}, {@code {sut.sip}} are
 * replaced by the ports those processes announced in their READY line.
 *
 * @param name      a short name: the process's key in summary.json and its files' prefix ("backend")
 * @param moduleDir a JVM companion's Maven module, relative to perflab's home; null for a program
 * @param mainClass a JVM companion's main class; null for a program
 * @param jvmFlags  a JVM companion's flags (heap, collector): the run's --heap and --gc are the SUT's only
 * @param command   a program companion's executable and arguments; empty for a JVM
 * @param args      further arguments (a JVM's main arguments after perflab's --host/--port/--jvm-report)
 * @param start     whether it starts before the SUT (the SUT needs it) or after (it needs the SUT)
 * @param readyLine a program's readiness line prefix; null: ready once started
 * @param sampling  whether perflab samples the process alone or the process with every process under it
 * @param role      what the companion is to the run, when the results single it out (a database); null: none
 * @param settings  what a reader of the results must know it ran with (a database's durability settings),
 *                  recorded in run.json as declared; empty for none
 * @param listens   for a program that prints no READY line with its ports (haproxy, Kamailio): the names of the
 *                  loopback ports perflab chooses for it before it starts, which its own words name as
 *                  {@code {haproxy.http}} (and later processes too); it is ready once it has bound every one
 *                  (and printed {@code readyLine}, when there is one). Empty for none
 * @param url       how a server file's server reaches it, {@code {NAME.url}} ({@link #url()}): a template that may
 *                  name its ports ({@code jdbc:postgresql://127.0.0.1:{postgres.port}/trade}); null: HTTP on its port
 */
public record Companion(String name, String moduleDir, String mainClass, List<String> jvmFlags, List<String> command,
                        List<String> args, Start start, String readyLine, Sampling sampling, Role role,
                        Map<String, String> settings, List<String> listens, String url) {

    /** When a companion starts relative to the SUT; it is stopped in the reverse order. */
    public enum Start { BEFORE_SUT, AFTER_SUT }

    /** What perflab samples as the companion. */
    public enum Sampling {
        /** The process alone (a JVM doing its work in its own threads). */
        PROCESS,
        /**
         * The process and all its descendants, CPU and memory summed (a database whose work happens in child
         * processes, PostgreSQL's backends): without them its CPU would read near zero.
         */
        TREE
    }

    /** A part a companion plays in the run that summary.json reports under its own key. */
    public enum Role {
        /** The run's database: summary.json's {@code database}, with its CPU counted per request beside the SUT's. */
        DATABASE;

        /** The key in summary.json ("database"). */
        public String key() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public Companion {
        Objects.requireNonNull(name);
        Objects.requireNonNull(start);
        Objects.requireNonNull(sampling);
        if (!name.matches("[a-z][a-z0-9-]*") || SutInstances.reserved(name)) {
            throw new IllegalArgumentException("a companion's name is a lower-case word other than driver, sut and sut-N, got '" + name + "'");
        }
        jvmFlags = List.copyOf(jvmFlags);
        command = List.copyOf(command);
        args = List.copyOf(args);
        settings = Collections.unmodifiableMap(new LinkedHashMap<>(settings)); // in the order declared, for run.json
        listens = List.copyOf(listens);
        if (!listens.isEmpty() && mainClass != null) {
            throw new IllegalArgumentException("companion " + name + ": a JVM companion announces its own ports");
        }
        if (listens.stream().anyMatch(l -> !l.matches("[a-z][a-z0-9-]*")) || listens.stream().distinct().count() != listens.size()) {
            throw new IllegalArgumentException("companion " + name + ": its ports are distinct lower-case words, got " + listens);
        }
        if ((mainClass == null) == command.isEmpty()) {
            throw new IllegalArgumentException("companion " + name + ": give a JVM main class or a program's command, not both");
        }
    }

    /** A JVM on a module's stack classpath, following perflab's process protocol; sampled alone. */
    public static Companion jvm(String name, String moduleDir, String mainClass, List<String> jvmFlags,
                                List<String> args, Start start) {
        return new Companion(name, Objects.requireNonNull(moduleDir), Objects.requireNonNull(mainClass), jvmFlags,
                List.of(), args, start, null, Sampling.PROCESS, null, Map.of(), List.of(), null);
    }

    /** A program (SIPp, a database server), ready when it prints a line starting with {@code readyLine}; sampled alone. */
    public static Companion program(String name, List<String> command, Start start, String readyLine) {
        return new Companion(name, null, null, List.of(), command, List.of(), start, readyLine, Sampling.PROCESS,
                null, Map.of(), List.of(), null);
    }

    /** The same companion, sampled with every process under it. */
    public Companion sampledAsTree() {
        return new Companion(name, moduleDir, mainClass, jvmFlags, command, args, start, readyLine, Sampling.TREE,
                role, settings, listens, url);
    }

    /** The same companion playing {@code role} in the run. */
    public Companion as(Role role) {
        return new Companion(name, moduleDir, mainClass, jvmFlags, command, args, start, readyLine, sampling,
                Objects.requireNonNull(role), settings, listens, url);
    }

    /** The same companion with the settings run.json records for it (in this order). */
    public Companion withSettings(Map<String, String> settings) {
        return new Companion(name, moduleDir, mainClass, jvmFlags, command, args, start, readyLine, sampling, role,
                settings, listens, url);
    }

    /** The same program, ready once it has bound loopback ports perflab chose for it under these names. */
    public Companion listening(String... names) {
        return new Companion(name, moduleDir, mainClass, jvmFlags, command, args, start, readyLine, sampling, role,
                settings, List.of(names), url);
    }

    /** The same companion, reached by a server file's server at {@code url} (a template naming its ports). */
    public Companion reachedAt(String url) {
        return new Companion(name, moduleDir, mainClass, jvmFlags, command, args, start, readyLine, sampling, role,
                settings, listens, Objects.requireNonNull(url));
    }

    /** How a server file's server reaches it ({@code {NAME.url}}): its own template, or HTTP on its port. */
    public String url() {
        return url != null ? url : "http://127.0.0.1:{" + name + ".port}";
    }

    public boolean isJvm() {
        return mainClass != null;
    }
}
