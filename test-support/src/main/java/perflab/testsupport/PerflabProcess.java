package perflab.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * perflab's CLI started as a real process, the way a user starts it (the launcher's java command), for the end-to-end
 * tests of the platform (cli) and of each workload (workloads/NAME/it): perflab's home is the system property
 * {@code perflab.home} (the build's root, which the parent pom gives Failsafe), its jar {@code cli/target/perflab-cli.jar}.
 */
public final class PerflabProcess implements AutoCloseable {
    public final Process process;
    public final Path stdout;
    public final Path stderr;

    private PerflabProcess(Process process, Path stdout, Path stderr) {
        this.process = process;
        this.stdout = stdout;
        this.stderr = stderr;
    }

    public static Path home() {
        return Path.of(System.getProperty("perflab.home", "..")).toAbsolutePath().normalize();
    }

    /**
     * The classpath entry of a workload kept for the tests under test-workloads/ (its jar and libraries, which its
     * build copies to target/stack/), for {@link #startWith}: {@code hello}, the one the platform's own tests run.
     */
    public static String testWorkload(String name) {
        return home().resolve("test-workloads").resolve(name).resolve("target/stack") + "/*";
    }

    /**
     * Runs a command perflab must refuse, and checks the refusal: exit 2, one line on stderr that starts with
     * "perflab: ", names the problem ({@code expected}) and what is accepted ({@code hint}), and no stack trace.
     */
    public static void assertRefused(Path workDir, String classpath, String expected, String hint, String... args)
            throws IOException, InterruptedException {
        try (PerflabProcess p = startShortWith(workDir, classpath, args)) {
            int status = p.await(java.time.Duration.ofSeconds(60));
            String err = p.err();
            List<String> lines = err.lines().filter(l -> !l.isBlank()).toList();
            String command = String.join(" ", args);
            if (status != 2 || lines.size() != 1 || !lines.get(0).startsWith("perflab: ") || err.contains("\tat ")) {
                throw new AssertionError(command + ": expected exit 2 and one line 'perflab: ...', got exit " + status + ":\n" + err);
            }
            if (!err.contains(expected) || !err.contains(hint)) {
                throw new AssertionError(command + ": expected '" + expected + "' and what is accepted ('" + hint + "'), got: " + err);
            }
        }
    }

    /**
     * Makes the perflab cache of processes started in {@code workDir} (where a server kind unpacks a distribution and
     * trade keeps its populated databases) the one the module's test classes share, {@code target/perflab-cache} of
     * the module Failsafe runs in: a user's second run restores what the first prepared, and so do the tests that are
     * not about that first preparation. On a 2-CPU CI each of trade's ITs otherwise unpacked Open Liberty (8,381
     * files) or populated 15,000 users again. A test of what a first use does keeps a cache of its own (the default).
     */
    public static void shareCache(Path workDir) throws IOException {
        Path shared = Files.createDirectories(Path.of("target", "perflab-cache").toAbsolutePath());
        Path link = workDir.resolve("cache");
        if (!Files.isSymbolicLink(link)) {
            Files.createSymbolicLink(link, shared);
        }
    }

    public static PerflabProcess start(Path workDir, String... args) throws IOException {
        return startWith(workDir, null, args);
    }

    /**
     * perflab with more on its classpath (a workload kept outside the CLI, as the launcher's PERFLAB_CLASSPATH
     * gives it); {@code classpath} null for the CLI alone.
     */
    public static PerflabProcess startWith(Path workDir, String classpath, String... args) throws IOException {
        return startIn(List.of(), workDir, classpath, args);
    }

    /**
     * perflab for a command that ends before any load is sent (bad input refused, a server that fails to start): its
     * JVM compiles with C1 only ({@code -XX:TieredStopAtLevel=1}, which a user may set in PERFLAB_JAVA_OPTS). Such a
     * command never reaches the hot code C2 is for: with C2 compiling the start-up's own code, a refused flag cost
     * 1.0 s of user CPU against 0.6 s, on a machine where BadInputIT starts 58 of them. Nothing perflab prints or
     * exits with depends on the compiler.
     */
    public static PerflabProcess startShort(Path workDir, String... args) throws IOException {
        return startShortWith(workDir, null, args);
    }

    /** {@link #startShort} with more on the classpath, as {@link #startWith}. */
    public static PerflabProcess startShortWith(Path workDir, String classpath, String... args) throws IOException {
        return launch(List.of(), List.of("-XX:TieredStopAtLevel=1"), workDir, classpath, args);
    }

    /** perflab under {@code prefix} (ip netns exec NS: in a network namespace the test made). */
    public static PerflabProcess startIn(List<String> prefix, Path workDir, String classpath, String... args) throws IOException {
        return launch(prefix, List.of(), workDir, classpath, args);
    }

    private static PerflabProcess launch(List<String> prefix, List<String> jvmFlags, Path workDir, String classpath,
                                         String... args) throws IOException {
        Path jar = home().resolve("cli/target/perflab-cli.jar");
        List<String> command = new ArrayList<>(prefix);
        command.addAll(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xms256m", "-Xmx256m", "-Dperflab.home=" + home()));
        command.addAll(jvmFlags);
        if (classpath == null) {
            command.addAll(List.of("-jar", jar.toString()));
        } else {
            command.addAll(List.of("-cp", jar + ":" + classpath, "perflab.cli.Perflab"));
        }
        command.addAll(List.of(args));
        Path out = workDir.resolve("perflab.out");
        Path err = workDir.resolve("perflab.err");
        ProcessBuilder builder = new ProcessBuilder(command).directory(workDir.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile());
        // what a server keeps between runs (trade's populated databases) stays in the test's directory
        builder.environment().put("XDG_CACHE_HOME", workDir.resolve("cache").toString());
        // and so does the results history every finished run is recorded in (docs/history.md), at its default place
        builder.environment().put("XDG_DATA_HOME", workDir.resolve("data").toString());
        builder.environment().remove("PERFLAB_HISTORY");
        Process p = builder.start();
        return new PerflabProcess(p, out, err);
    }

    /** Runs to the end (bounded) and returns the exit status. */
    public int await(Duration limit) throws InterruptedException, IOException {
        if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("perflab did not end within " + limit + "; stderr: " + err());
        }
        return process.exitValue();
    }

    public String out() throws IOException {
        return Files.readString(stdout);
    }

    public String err() throws IOException {
        return Files.exists(stderr) ? Files.readString(stderr) : "";
    }

    /** The first group of {@code pattern} once perflab's output shows it (bounded); fails if perflab ends first. */
    public String awaitLine(java.util.regex.Pattern pattern) throws IOException, InterruptedException {
        return awaitLine(pattern, Duration.ofSeconds(90));
    }

    /** The same, waiting at most {@code limit} (an application server's first start on a busy machine). */
    public String awaitLine(java.util.regex.Pattern pattern, Duration limit) throws IOException, InterruptedException {
        String text = Poll.until(pattern + " in perflab's output", limit, () -> {
            String o = out();
            if (!pattern.matcher(o).find() && !process.isAlive()) {
                throw new AssertionError("perflab ended early: " + err() + o);
            }
            return o;
        }, o -> pattern.matcher(o).find());
        java.util.regex.Matcher m = pattern.matcher(text);
        m.find();
        return m.groupCount() > 0 ? m.group(1) : m.group();
    }

    /** Waits (bounded) until process {@code pid} is gone; fails, and kills it, if it was left behind. */
    public static void assertGone(long pid) throws InterruptedException {
        try {
            Poll.until("process " + pid + " to end", Duration.ofSeconds(20),
                    () -> !ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
        } catch (AssertionError e) {
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
            throw new AssertionError("process " + pid + " was left behind", e);
        }
    }

    public void signal(String signal) throws IOException, InterruptedException {
        new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start().waitFor();
    }

    @Override
    public void close() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }
}
