package perflab.experiment;

import perflab.core.sut.SutBootstrap;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntConsumer;

/**
 * A SUT JVM started by perflab. Its stdout goes to {@code sut.out} (and is watched for the readiness line),
 * its stderr to {@code sut.err}; its stdin is a pipe that perflab never writes: closing it is the stop
 * signal, and it closes by itself if perflab dies, so the SUT never outlives perflab.
 */
public final class SutProcess implements AutoCloseable {
    private final Process process;
    private final Path runDir;
    private final CompletableFuture<String> readiness = new CompletableFuture<>();
    private volatile boolean stopping;
    private volatile int port = -1;
    private volatile long backendPid = -1;
    private static final java.util.regex.Pattern BACKEND_PID = java.util.regex.Pattern.compile("\\bpid=(\\d+)");

    private SutProcess(Process process, Path runDir) {
        this.process = process;
        this.runDir = runDir;
    }

    /** Starts the SUT and waits until it reports ready; on failure the process is gone and the reason said. */
    public static SutProcess start(List<String> command, Path runDir, Duration readyTimeout) throws RunFailure {
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectError(runDir.resolve("sut.err").toFile())
                .redirectInput(ProcessBuilder.Redirect.PIPE)
                .redirectOutput(ProcessBuilder.Redirect.PIPE);
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new RunFailure("cannot start the SUT: " + e.getMessage());
        }
        SutProcess sut = new SutProcess(process, runDir);
        sut.pumpStdout();
        sut.awaitReady(readyTimeout);
        return sut;
    }

    private void pumpStdout() {
        Thread pump = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
                 BufferedWriter out = Files.newBufferedWriter(runDir.resolve("sut.out"))) {
                String line;
                while ((line = in.readLine()) != null) {
                    out.write(line);
                    out.newLine();
                    out.flush();
                    if (line.startsWith(SutBootstrap.BACKEND)) {
                        backendPid = backendPid(line, process.pid());
                    }
                    if (!readiness.isDone() && (line.startsWith(SutBootstrap.READY) || line.startsWith(SutBootstrap.FAILED))) {
                        readiness.complete(line);
                    }
                }
            } catch (IOException e) {
                // the process is gone; the exit handling reports it
            } finally {
                readiness.complete(null);
            }
        }, "sut-stdout");
        pump.setDaemon(true);
        pump.start();
    }

    private void awaitReady(Duration timeout) throws RunFailure {
        String line;
        try {
            line = readiness.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            kill();
            throw new RunFailure("the SUT did not report ready within " + timeout.toSeconds() + " s", logTail());
        } catch (InterruptedException e) {
            kill();
            Thread.currentThread().interrupt();
            throw new RunFailure("interrupted while the SUT was starting");
        } catch (ExecutionException e) {
            kill();
            throw new RunFailure("the SUT failed to start: " + e.getCause());
        }
        if (line != null && line.startsWith(SutBootstrap.READY)) {
            port = Integer.parseInt(line.substring(line.indexOf("port=") + 5).trim());
            return;
        }
        waitForExit(Duration.ofSeconds(5));
        kill();
        String reason = line != null ? line.substring(SutBootstrap.FAILED.length()).trim() : jvmRefusal();
        throw new RunFailure("the SUT failed to start: " + reason, logTail());
    }

    /** The JVM's own one-line reason when it refused to start (an unknown or bad flag). */
    private String jvmRefusal() {
        List<String> err = lines(runDir.resolve("sut.err"));
        for (String l : err) {
            if (l.contains("VM option") || l.contains("Invalid") || l.contains("Unrecognized") || l.contains("Could not find or load")) {
                return "the JVM refused it: " + l.trim();
            }
        }
        Integer code = exitCode();
        return "it exited" + (code == null ? "" : " with status " + code) + " before it was ready";
    }

    /** The last lines of the SUT's stderr and stdout, for a failure message. */
    public String logTail() {
        StringBuilder tail = new StringBuilder();
        for (String name : List.of("sut.err", "sut.out")) {
            List<String> l = lines(runDir.resolve(name));
            if (!l.isEmpty()) {
                tail.append("--- last lines of ").append(runDir.resolve(name)).append(" ---\n");
                l.subList(Math.max(0, l.size() - 15), l.size()).forEach(x -> tail.append(x).append('\n'));
            }
        }
        return tail.toString();
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return new ArrayList<>();
        }
    }

    public int port() {
        return port;
    }

    /** The pid of the back end the SUT started in a process of its own (said before READY), or -1. */
    public long backendPid() {
        return backendPid;
    }

    /** The pid= of a PERFLAB-BACKEND line; -1 for none, or for the SUT's own (a back end in its JVM). */
    static long backendPid(String line, long sutPid) {
        java.util.regex.Matcher m = BACKEND_PID.matcher(line);
        if (!m.find()) {
            return -1;
        }
        long pid = Long.parseLong(m.group(1));
        return pid == sutPid ? -1 : pid;
    }

    public long pid() {
        return process.pid();
    }

    public boolean alive() {
        return process.isAlive();
    }

    /** Calls {@code handler} with the exit status if the SUT exits before perflab stops it. */
    public void onUnexpectedExit(IntConsumer handler) {
        process.onExit().thenAccept(p -> {
            if (!stopping) {
                handler.accept(p.exitValue());
            }
        });
    }

    /** Exit status, or null while running. */
    public Integer exitCode() {
        return process.isAlive() ? null : process.exitValue();
    }

    /** Graceful stop (close stdin), then SIGTERM, then SIGKILL. Returns the exit status. */
    public int stop(Duration grace) {
        stopping = true;
        try {
            process.getOutputStream().close();
        } catch (IOException e) {
            // already closed: the process is exiting
        }
        if (!waitForExit(grace)) {
            process.destroy();
            if (!waitForExit(Duration.ofSeconds(5))) {
                process.destroyForcibly();
                waitForExit(Duration.ofSeconds(5));
            }
        }
        return process.isAlive() ? -1 : process.exitValue();
    }

    private boolean waitForExit(Duration d) {
        try {
            return process.waitFor(d.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !process.isAlive();
        }
    }

    private void kill() {
        stopping = true;
        process.destroyForcibly();
        waitForExit(Duration.ofSeconds(5));
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            stop(Duration.ofSeconds(10));
        }
    }
}
