package perflab.core.workload;

import java.util.List;
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
 */
public record Companion(String name, String moduleDir, String mainClass, List<String> jvmFlags, List<String> command,
                        List<String> args, Start start, String readyLine) {

    /** When a companion starts relative to the SUT; it is stopped in the reverse order. */
    public enum Start { BEFORE_SUT, AFTER_SUT }

    public Companion {
        Objects.requireNonNull(name);
        Objects.requireNonNull(start);
        if (!name.matches("[a-z][a-z0-9-]*") || name.equals("sut") || name.equals("driver")) {
            throw new IllegalArgumentException("a companion's name is a lower-case word other than sut and driver, got '" + name + "'");
        }
        jvmFlags = List.copyOf(jvmFlags);
        command = List.copyOf(command);
        args = List.copyOf(args);
        if ((mainClass == null) == command.isEmpty()) {
            throw new IllegalArgumentException("companion " + name + ": give a JVM main class or a program's command, not both");
        }
    }

    /** A JVM on a module's stack classpath, following perflab's process protocol. */
    public static Companion jvm(String name, String moduleDir, String mainClass, List<String> jvmFlags,
                                List<String> args, Start start) {
        return new Companion(name, Objects.requireNonNull(moduleDir), Objects.requireNonNull(mainClass), jvmFlags,
                List.of(), args, start, null);
    }

    /** A program (SIPp, a database server), ready when it prints a line starting with {@code readyLine}. */
    public static Companion program(String name, List<String> command, Start start, String readyLine) {
        return new Companion(name, null, null, List.of(), command, List.of(), start, readyLine);
    }

    public boolean isJvm() {
        return mainClass != null;
    }
}
