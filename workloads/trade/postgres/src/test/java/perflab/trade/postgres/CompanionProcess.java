package perflab.trade.postgres;

import perflab.testsupport.Poll;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * The companion started as perflab starts it: its own JVM (on the test classpath), {@code --host 127.0.0.1
 * --port 0} and the given settings, its stdout read for the READY line, its stderr (PostgreSQL's log) kept.
 */
final class CompanionProcess implements AutoCloseable {
    static final String SETTINGS = "fsync=off,synchronous_commit=on,full_page_writes=on,shared_buffers=128MB,"
            + "max_connections=120";

    final Process process;
    final List<String> out = Collections.synchronizedList(new ArrayList<>());
    private final CompletableFuture<String> readyOrFailed = new CompletableFuture<>();
    private final CompletableFuture<Void> endOfOutput = new CompletableFuture<>();
    private final Path err;
    int port = -1;

    private CompanionProcess(Process process, Path err) {
        this.process = process;
        this.err = err;
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    out.add(line);
                    if (line.startsWith("PERFLAB-READY") || line.startsWith("PERFLAB-FAILED")) {
                        readyOrFailed.complete(line);
                    }
                }
            } catch (IOException e) {
                // gone
            } finally {
                readyOrFailed.complete(null);
                endOfOutput.complete(null);
            }
        }, "companion-stdout");
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts the companion with {@code args} after perflab's own; returns once it printed READY or FAILED (or exited). */
    static CompanionProcess start(Path errFile, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx32m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                PostgresCompanion.class.getName(), "--host", "127.0.0.1", "--port", "0"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectError(errFile.toFile()).start();
        CompanionProcess c = new CompanionProcess(p, errFile);
        String line = c.readyOrFailed.completeOnTimeout(null, 90, TimeUnit.SECONDS).join();
        if (line != null && line.startsWith("PERFLAB-READY port=")) {
            c.port = Integer.parseInt(line.substring("PERFLAB-READY port=".length()).trim());
        }
        return c;
    }

    /** Started and ready, or the test fails with what it printed. */
    CompanionProcess ready() {
        if (port <= 0) {
            process.destroyForcibly();
            fail("the companion did not get ready: " + out + "\nits stderr: " + tail(err));
        }
        return this;
    }

    Connection connect(String database) throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/" + database + "?user=postgres");
    }

    /** The first line of output that contains {@code text}, or the test fails. */
    String line(String text) {
        synchronized (out) {
            return out.stream().filter(l -> l.contains(text)).findFirst()
                    .orElseGet(() -> fail("no line with '" + text + "' in " + out));
        }
    }

    /** The first line that contains {@code text}, waiting up to {@code seconds} for it; else the test fails. */
    String awaitLine(String text, int seconds) throws InterruptedException {
        return Poll.until("a line with '" + text + "' from the companion", Duration.ofSeconds(seconds), () -> {
            synchronized (out) {
                return out.stream().filter(l -> l.contains(text)).findFirst().orElse(null);
            }
        }, java.util.Objects::nonNull);
    }

    /** Every process under the companion now (the postmaster and its backends). */
    List<ProcessHandle> tree() {
        return process.descendants().toList();
    }

    /** Closes its stdin, perflab's stop signal, and waits (bounded) for it to exit; returns its exit status. */
    int closeStdin() throws Exception {
        process.getOutputStream().close();
        return awaitExit();
    }

    int awaitExit() throws InterruptedException {
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail("the companion did not exit within 60 s: " + out);
        }
        endOfOutput.completeOnTimeout(null, 10, TimeUnit.SECONDS).join(); // every line it printed read
        return process.exitValue();
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }

    /** Asserts that none of {@code processes} lives, waiting up to {@code seconds} for them to go. */
    static void assertAllGone(List<ProcessHandle> processes, int seconds) throws InterruptedException {
        Poll.until("processes to end", Duration.ofSeconds(seconds), () -> processes.stream().filter(ProcessHandle::isAlive)
                .map(h -> h.pid() + " " + h.info().commandLine().orElse("?")).toList(), List::isEmpty);
    }

    /** The pids of processes whose command line mentions {@code path} (a cluster's directory), from /proc. */
    static List<Long> processesMentioning(Path path) throws IOException {
        List<Long> found = new ArrayList<>();
        try (Stream<Path> all = Files.list(Path.of("/proc"))) {
            for (Path dir : (Iterable<Path>) all.filter(d -> d.getFileName().toString().matches("\\d+"))::iterator) {
                try {
                    String cmdline = new String(Files.readAllBytes(dir.resolve("cmdline")), StandardCharsets.UTF_8)
                            .replace('\0', ' ');
                    if (cmdline.contains(path.toString())) {
                        found.add(Long.parseLong(dir.getFileName().toString()));
                    }
                } catch (IOException e) {
                    // gone while listed
                }
            }
        }
        return found;
    }

    static void assertNoProcessMentions(Path path) throws Exception {
        Poll.until("no process running on " + path, Duration.ofSeconds(20), () -> processesMentioning(path), List::isEmpty);
    }

    private static String tail(Path file) {
        try {
            List<String> lines = Files.readAllLines(file);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "(unreadable)";
        }
    }
}
