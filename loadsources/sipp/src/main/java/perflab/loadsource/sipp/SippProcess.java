package perflab.loadsource.sipp;

import perflab.core.process.LocalSockets;
import perflab.core.process.ProcessReaper;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A SIPp instance that perflab started and owns: in the foreground, stdin from /dev/null (it runs with -nostdin),
 * stdout and stderr into {@code <name>.out} and {@code <name>.err} in the run directory, which is also its working
 * directory (SIPp writes its -trace_rtt file there under a name of its own). It ends by itself (-m, -timeout);
 * {@link #stop} ends it sooner. Were perflab killed, SIPp would still end at its -timeout once its open calls end.
 */
public final class SippProcess implements AutoCloseable {
    /** A second SIGUSR1 would not be a polite request any more: SIPp counts them towards a hard exit. */
    private volatile boolean askedToStop;
    private final SippCommand command;
    private final Path runDir;
    private final String name;
    private final Process process;

    private SippProcess(SippCommand command, Path runDir, String name, Process process) {
        this.command = command;
        this.runDir = runDir;
        this.name = name;
        this.process = process;
    }

    /** Starts SIPp; {@code name} names its output files (use the one given to {@link SippCommand.Builder#files}). */
    public static SippProcess start(SippCommand command, Path runDir, String name) throws IOException {
        if (!name.matches("[A-Za-z0-9._-]+")) {
            throw new IllegalArgumentException("the SIPp instance name '" + name + "' must be letters, digits, '.', '_' or '-'");
        }
        Path dir = runDir.toAbsolutePath().normalize();
        Files.createDirectories(dir);
        // in a group of its own, reaped if perflab is killed: SIPp does not stop when perflab goes
        ProcessBuilder builder = new ProcessBuilder(ProcessReaper.inOwnGroup(command.arguments()))
                .directory(dir.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(dir.resolve(name + ".out").toFile())
                .redirectError(dir.resolve(name + ".err").toFile());
        try {
            Process process = builder.start();
            ProcessReaper.watch(process.pid());
            return new SippProcess(command, dir, name, process);
        } catch (IOException e) {
            throw new IOException("cannot start SIPp (" + command.arguments().get(0) + "): " + e.getMessage()
                    + "; install the sip-tester package or give the sipp executable's path");
        }
    }

    /**
     * Waits until SIPp has bound its local port, so that a peer started next finds it listening. Its first statistics
     * row proves nothing: SIPp writes one on its way out after a failed bind too. Throws, with SIPp's reason, if it
     * exits first or takes longer than {@code max}.
     */
    public void awaitStarted(Duration max) throws IOException {
        long deadline = System.nanoTime() + max.toNanos();
        int port = command.localPort();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("SIPp " + name + " exited before it started: " + exitExplanation());
            }
            if (LocalSockets.bound(process.pid(), port)) {
                return;
            }
            sleep(20);
            if (Thread.currentThread().isInterrupted()) {
                throw new IOException("interrupted while SIPp " + name + " was starting");
            }
        }
        throw new IOException("SIPp " + name + " did not bind port " + port + " within " + max.toMillis() + " ms; see " + stderr());
    }

    public long pid() {
        return process.pid();
    }

    public boolean alive() {
        return process.isAlive();
    }

    /** Exit status, or null while it runs. */
    public Integer exitCode() {
        return process.isAlive() ? null : process.exitValue();
    }

    /** Waits up to {@code max} for SIPp to end by itself; true if it has. */
    public boolean awaitExit(Duration max) {
        try {
            return process.waitFor(max.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !process.isAlive();
        }
    }

    /**
     * Stops SIPp: SIGUSR1 first (SIPp places no new call and exits when its open calls end), then after
     * {@code grace} SIGTERM (SIPp exits at once, still writing its last statistics row), then SIGKILL.
     * Returns the exit status.
     */
    public int stop(Duration grace) {
        if (process.isAlive()) {
            askToStop();
            if (!awaitExit(grace)) {
                process.destroy();
                if (!awaitExit(Duration.ofSeconds(5))) {
                    process.destroyForcibly();
                    awaitExit(Duration.ofSeconds(5));
                }
            }
        }
        if (!process.isAlive()) {
            ProcessReaper.release(process.pid()); // SIPp forks nothing: its group ended with it
        }
        return process.isAlive() ? -1 : process.exitValue();
    }

    /**
     * SIGUSR1 once, without waiting: SIPp places no new call and exits when its open calls end. Several SIPps
     * asked first and waited for after then finish their calls together, not one grace after another.
     */
    public void askToStop() {
        if (!askedToStop && process.isAlive()) {
            askedToStop = true;
            signal("USR1");
        }
    }

    /** Java has no call for it; kill(1) is part of every Linux base system. */
    private void signal(String signal) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            kill.waitFor(5, TimeUnit.SECONDS);
        } catch (IOException e) {
            // no kill(1): the SIGTERM that follows the grace still stops SIPp
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The exit status and what it means, with SIPp's last error line when it wrote one; "running" while it runs. */
    public String exitExplanation() {
        Integer code = exitCode();
        if (code == null) {
            return "running";
        }
        String last = lastError();
        return "exit status " + code + ": " + SippExit.explain(code) + (last.isEmpty() ? "" : " (SIPp: " + last + ")");
    }

    /** SIPp's last line on stderr, without its time stamp; empty if none. */
    public String lastError() {
        try {
            List<String> lines = Files.readAllLines(stderr(), StandardCharsets.ISO_8859_1);
            for (int i = lines.size() - 1; i >= 0; i--) {
                String l = lines.get(i).replaceFirst("^\\S+\\t\\S+\\t[0-9.]+:\\s*", "").trim();
                if (!l.isEmpty() && !l.startsWith("Resolving remote host")) {
                    return l;
                }
            }
        } catch (IOException e) {
            // no stderr file: nothing to add
        }
        return "";
    }

    /** What SIPp has written so far; complete once it has exited. */
    public SippStatistics statistics() throws IOException {
        return SippStatistics.read(command.statisticsFile(), command.responseTimeFile(runDir, pid()).orElse(null));
    }

    public SippCommand command() {
        return command;
    }

    public String name() {
        return name;
    }

    public Path stdout() {
        return runDir.resolve(name + ".out");
    }

    public Path stderr() {
        return runDir.resolve(name + ".err");
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        stop(Duration.ofSeconds(5));
    }
}
