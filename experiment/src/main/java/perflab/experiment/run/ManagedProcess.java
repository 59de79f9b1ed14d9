package perflab.experiment.run;

import perflab.core.server.ServerFile;
import perflab.core.server.ServerPlan;
import perflab.core.sut.SutBootstrap;
import perflab.core.workload.SutInstances;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntConsumer;

/**
 * A process perflab starts for a run (the SUT, a companion). Its stdout goes to {@code <name>.out} (and is
 * watched for the readiness line), its stderr to {@code <name>.err}; its stdin is a pipe perflab never writes:
 * closing it is the stop signal, and it closes by itself if perflab dies, so the process never outlives perflab.
 */
public final class ManagedProcess implements AutoCloseable {
    private final String name;
    private final Process process;
    private final Path runDir;
    private final String readyPrefix;
    /**
     * Started through setsid: it leads a process group of its own, which holds whatever it forks (Kamailio's workers,
     * a script's children). Ending it ends the group too: its workers outlived a Kamailio that died starting up.
     */
    private final boolean ownGroup;
    /** Its readiness line (null: stdout closed first); for a process that announces its own ports, its readiness. */
    private final CompletableFuture<String> lineSeen = new CompletableFuture<>();
    /** Done when it is ready: the line seen and, for a program on ports perflab chose, every one of them bound. */
    private final CompletableFuture<String> readiness;
    private volatile boolean stopping;
    private volatile Map<String, Integer> ports = Map.of();
    /** When it last printed a progress line (System.nanoTime()), or when it started. */
    private volatile long lastProgressNanos = System.nanoTime();
    /** However much progress it reports, a start that takes longer than this has failed. */
    static final Duration LONGEST_START = Duration.ofHours(1);
    /** Its startup facts (PERFLAB-FACT lines before READY), in the order it said them. */
    private final Map<String, Object> startupFacts = java.util.Collections.synchronizedMap(new LinkedHashMap<>());

    /** For a program from a server file: how it is known ready and stopped; null for one of perflab's protocol. */
    private final ServerPlan.Program program;
    /** A program's readiness line ({@link ServerFile.Ready.Kind#LINE}); null: none looked for. */
    private final java.util.regex.Pattern readyPattern;

    private ManagedProcess(String name, Process process, Path runDir, String readyPrefix, Map<String, Integer> listens,
                           boolean ownGroup) {
        this(name, process, runDir, readyPrefix, listens, ownGroup, null);
    }

    private ManagedProcess(String name, Process process, Path runDir, String readyPrefix, Map<String, Integer> listens,
                           boolean ownGroup, ServerPlan.Program program) {
        this.ownGroup = ownGroup;
        this.name = name;
        this.process = process;
        this.runDir = runDir;
        this.readyPrefix = readyPrefix;
        this.program = program;
        ServerFile.Ready ready = program == null ? null : program.ready();
        this.readyPattern = ready != null && ready.kind() == ServerFile.Ready.Kind.LINE
                ? java.util.regex.Pattern.compile(ready.target()) : null;
        if (ready != null) {
            this.ports = Map.copyOf(listens);
            this.readiness = ready.kind() == ServerFile.Ready.Kind.LINE ? lineSeen
                    : CompletableFuture.supplyAsync(() -> awaitServing(ready, listens), task -> {
                        Thread poller = new Thread(task, name + "-ready"); // polls: not the common pool's one thread
                        poller.setDaemon(true);
                        poller.start();
                    });
        } else if (listens.isEmpty()) {
            this.readiness = lineSeen;
        } else {
            this.ports = Map.copyOf(listens);
            this.readiness = lineSeen.thenCompose(line -> line == null || line.startsWith(SutBootstrap.FAILED)
                    // the line itself once bound: a SUT instance's READY line names the ports it chose itself
                    ? CompletableFuture.completedFuture(line) : CompletableFuture.supplyAsync(() -> awaitBound(listens) == null
                    ? null : line, task -> {
                        Thread poller = new Thread(task, name + "-ports"); // polls: not the common pool's one thread
                        poller.setDaemon(true);
                        poller.start();
                    }));
        }
    }

    /**
     * Waits until the process holds a socket on every one of {@code listens}' ports: "" then, or null when it exited
     * first. Polled every 20 ms: a proxy binds its ports within milliseconds of its start.
     */
    private String awaitBound(Map<String, Integer> listens) {
        return pollWhileAlive(20, () -> listens.values().stream()
                .allMatch(port -> perflab.core.process.LocalSockets.bound(process.pid(), port)));
    }

    /**
     * Waits until a program serves as its server file says: its HTTP URL answers a status in the range, or its port
     * accepts a connection. "" then, null when it exited first. Polled every 100 ms, each try bounded.
     */
    private String awaitServing(ServerFile.Ready ready, Map<String, Integer> listens) {
        return pollWhileAlive(100, () -> ready.kind() == ServerFile.Ready.Kind.HTTP ? ProgramReadiness.answers(ready)
                : ProgramReadiness.accepts(listens.get(ready.target())));
    }

    /** "" once {@code ready} holds, tried every {@code millis} ms while the process lives; null when it exited first. */
    private String pollWhileAlive(long millis, java.util.function.BooleanSupplier ready) {
        while (process.isAlive()) {
            if (ready.getAsBoolean()) {
                return "";
            }
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }
        return null;
    }

    /**
     * Starts a program declared in a server file, which knows nothing of perflab's protocol: its files written, in
     * its own process group (which perflab ends whole, also when perflab itself is killed), with its environment,
     * and waits until it serves as {@code program}'s {@code ready} says (its words' port references filled in,
     * {@code ports} the ports perflab chose for it by name).
     */
    public static ManagedProcess startProgram(String name, List<String> command, Path runDir, ServerPlan.Program program,
                                              Map<String, Integer> ports) throws RunFailure {
        try {
            for (Map.Entry<Path, String> file : program.files().entrySet()) {
                Files.createDirectories(file.getKey().getParent());
                if (!file.getKey().getParent().toRealPath().startsWith(program.workDir().toRealPath())) {
                    throw new IOException(file.getKey() + " would be written outside the run's copy of the home");
                }
                Files.deleteIfExists(file.getKey()); // the run's copy links to the home's: never write through it
                Files.writeString(file.getKey(), file.getValue(), StandardCharsets.UTF_8);
            }
        } catch (IOException e) {
            throw new RunFailure("cannot write the files of " + label(name) + ": " + e.getMessage());
        }
        List<String> grouped = perflab.core.process.ProcessReaper.inOwnGroup(command);
        if (!grouped.get(0).endsWith("/setsid")) {
            // without a group of its own, what its start script forks could outlive perflab
            throw new RunFailure("cannot start " + label(name) + ": a server from a server file runs in a process group "
                    + "of its own, through /usr/bin/setsid (util-linux), which this machine lacks");
        }
        ProcessBuilder builder = new ProcessBuilder(grouped)
                .directory(program.workDir() == null ? null : program.workDir().toFile())
                .redirectInput(ProcessBuilder.Redirect.PIPE)
                .redirectOutput(ProcessBuilder.Redirect.PIPE)
                .redirectError(ProcessBuilder.Redirect.PIPE);
        builder.environment().putAll(program.env());
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new RunFailure("cannot start " + label(name) + ": " + e.getMessage());
        }
        ManagedProcess p = new ManagedProcess(name, process, runDir, null, ports, true, program);
        perflab.core.process.ProcessReaper.watch(process.pid());
        p.pump(process.getInputStream(), name + ".out");
        p.pump(process.getErrorStream(), name + ".err");
        p.awaitReady(program.ready().timeout());
        return p;
    }

    /**
     * Starts a process that follows perflab's process protocol ({@link SutBootstrap}) and waits until it reports
     * ready; on failure the process is gone and the reason said.
     */
    public static ManagedProcess start(String name, List<String> command, Path runDir, Duration readyTimeout) throws RunFailure {
        return start(name, command, runDir, readyTimeout, SutBootstrap.READY);
    }

    /**
     * Starts a process and waits until it prints a line starting with {@code readyPrefix} (perflab's READY line,
     * or a program's own); a null prefix means ready once started.
     */
    public static ManagedProcess start(String name, List<String> command, Path runDir, Duration readyTimeout,
                                       String readyPrefix) throws RunFailure {
        return start(name, command, runDir, readyTimeout, readyPrefix, Map.of(), null);
    }

    /**
     * Starts a process in {@code workDir} (null: perflab's own working directory; a program companion runs in the run
     * directory, where the files it writes, a proxy's generated configuration, stay with the results) and waits until
     * it has printed {@code readyPrefix} (when not null) and, for a program on loopback ports perflab chose for it
     * ({@code listens}, by name: its {@link #ports()}), holds a socket on every one of them.
     */
    public static ManagedProcess start(String name, List<String> command, Path runDir, Duration readyTimeout,
                                       String readyPrefix, Map<String, Integer> listens, Path workDir) throws RunFailure {
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(workDir == null ? null : workDir.toFile())
                .redirectError(runDir.resolve(name + ".err").toFile())
                .redirectInput(ProcessBuilder.Redirect.PIPE)
                .redirectOutput(ProcessBuilder.Redirect.PIPE);
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new RunFailure("cannot start " + label(name) + ": " + e.getMessage());
        }
        ManagedProcess p = new ManagedProcess(name, process, runDir, readyPrefix, listens,
                !command.isEmpty() && command.get(0).endsWith("/setsid"));
        if (p.ownGroup) {
            perflab.core.process.ProcessReaper.watch(process.pid()); // a program does not stop if perflab is killed
        }
        p.pumpStdout();
        if (readyPrefix == null) {
            p.lineSeen.complete("");
        }
        p.awaitReady(readyTimeout);
        return p;
    }

    /** "the SUT", "SUT instance sut-1", "companion backend": how messages name a process. */
    public static String label(String name) {
        return name.equals(SutInstances.SUT) ? "the SUT"
                : SutInstances.reserved(name) ? "SUT instance " + name : "companion " + name;
    }

    private void pumpStdout() {
        pump(process.getInputStream(), name + ".out");
    }

    /** The threads copying its outputs: a failure's message waits for them to have written its last lines. */
    private final List<Thread> pumps = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** How many of its outputs are still being copied. */
    private final java.util.concurrent.atomic.AtomicInteger openPumps = new java.util.concurrent.atomic.AtomicInteger();

    /** Copies one of its outputs into {@code file} in the run directory line by line, watching for its readiness. */
    private void pump(java.io.InputStream stream, String file) {
        openPumps.incrementAndGet();
        Thread pump = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8));
                 BufferedWriter out = Files.newBufferedWriter(runDir.resolve(file))) {
                String line;
                while ((line = in.readLine()) != null) {
                    out.write(line);
                    out.newLine();
                    out.flush();
                    if (!lineSeen.isDone() && line.startsWith(SutBootstrap.PROGRESS + " ")) {
                        lastProgressNanos = System.nanoTime();
                    }
                    if (!lineSeen.isDone() && line.startsWith(SutBootstrap.FACT + " ")) {
                        ProtocolLines.fact(line, startupFacts);
                    }
                    if (!lineSeen.isDone() && readyPrefix != null
                            && (line.startsWith(readyPrefix) || line.startsWith(SutBootstrap.FAILED))) {
                        lineSeen.complete(line);
                    }
                    if (!lineSeen.isDone() && readyPattern != null && readyPattern.matcher(line).find()) {
                        lineSeen.complete("");
                    }
                }
            } catch (IOException e) {
                // the process is gone; the exit handling reports it
            } finally {
                if (openPumps.decrementAndGet() == 0) {
                    lineSeen.complete(null); // both its outputs closed: a program may close one and go on serving
                }
            }
        }, name + "-" + file);
        pump.setDaemon(true);
        pumps.add(pump);
        pump.start();
    }

    private void awaitReady(Duration timeout) throws RunFailure {
        String line;
        long started = System.nanoTime();
        try {
            // the timeout counts from its last progress line (PERFLAB-PROGRESS): a long population keeps it waiting
            while (true) {
                long now = System.nanoTime();
                long left = Math.min(lastProgressNanos + timeout.toNanos(), started + LONGEST_START.toNanos()) - now;
                if (left <= 0) {
                    throw new TimeoutException();
                }
                try {
                    line = readiness.get(Math.min(left, TimeUnit.SECONDS.toNanos(1)), TimeUnit.NANOSECONDS);
                    break;
                } catch (TimeoutException e) {
                    // look at the progress again
                }
            }
        } catch (TimeoutException e) {
            String tail = logTail(); // before the kill, which closes its pipes
            kill();
            boolean progressed = lastProgressNanos > started;
            throw new RunFailure(label(name) + (program != null ? " was not ready (" + ProgramReadiness.describe(program.ready())
                    + ")" : " did not report ready") + " within " + timeout.toSeconds() + " s"
                    + (progressed ? " of its last progress line" : ""), tail);
        } catch (InterruptedException e) {
            kill();
            Thread.currentThread().interrupt();
            throw new RunFailure("interrupted while " + label(name) + " was starting");
        } catch (ExecutionException e) {
            kill();
            throw new RunFailure(label(name) + " failed to start: " + e.getCause());
        }
        if (line != null && !line.startsWith(SutBootstrap.FAILED)) {
            if (line.startsWith(SutBootstrap.READY)) {
                // what it announced, beside the ports perflab chose for it (an instance's replication port)
                Map<String, Integer> all = new LinkedHashMap<>(ports);
                all.putAll(ProtocolLines.readyPorts(line));
                ports = Map.copyOf(all);
            }
            return;
        }
        waitForExit(Duration.ofSeconds(5));
        String tail = logTail(); // before the kill: destroying a Process closes its pipes, losing what was not read yet
        kill();
        String reason = line != null ? line.substring(SutBootstrap.FAILED.length()).trim() : jvmRefusal();
        throw new RunFailure(label(name) + " failed to start: " + reason, tail);
    }

    /** What it said of its start before it was ready ({@link perflab.core.sut.RunningServer#startupFacts()}). */
    public Map<String, Object> startupFacts() {
        synchronized (startupFacts) {
            return java.util.Collections.unmodifiableMap(new LinkedHashMap<>(startupFacts));
        }
    }

    /** The JVM's own one-line reason when it refused to start (an unknown or bad flag). */
    private String jvmRefusal() {
        List<String> err = lines(runDir.resolve(name + ".err"));
        for (String l : err) {
            if (l.contains("VM option") || l.contains("Invalid") || l.contains("Unrecognized") || l.contains("Could not find or load")) {
                return "the JVM refused it: " + l.trim();
            }
        }
        Integer code = exitCode();
        return "it exited" + (code == null ? "" : " with status " + code) + " before it was ready";
    }

    /** The last lines of the process's stderr and stdout, for a failure message. */
    public String logTail() {
        if (!process.isAlive()) {
            for (Thread pump : pumps) {
                try {
                    pump.join(2000); // its last lines, still on their way to the file
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
        StringBuilder tail = new StringBuilder();
        for (String file : List.of(name + ".err", name + ".out")) {
            List<String> l = lines(runDir.resolve(file));
            if (!l.isEmpty()) {
                tail.append("--- last lines of ").append(runDir.resolve(file)).append(" ---\n");
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

    public String name() {
        return name;
    }

    /** The main port of its READY line ({@code port=}), or -1. */
    public int port() {
        return ports.getOrDefault("port", -1);
    }

    /** Every port of its READY line by name ("port", "sip"); empty for a process that announces none. */
    public Map<String, Integer> ports() {
        return ports;
    }

    public long pid() {
        return process.pid();
    }

    public boolean alive() {
        return process.isAlive();
    }

    /** Calls {@code handler} with the exit status if the process exits before perflab stops it. */
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

    /**
     * Stops the process with SIGTERM at once (a program's own way to stop: one that forks ends its workers), SIGKILL
     * if it is still there after {@code grace}; an expected exit.
     */
    public void terminate(Duration grace) {
        stopping = true;
        process.destroy();
        if (!waitForExit(grace)) {
            process.destroyForcibly();
            waitForExit(Duration.ofSeconds(5));
        }
        killGroup();
    }

    /**
     * Stops a program as its server file says (its signal to its whole group, or its stop command), waits its grace,
     * then kills its group; an expected exit. The exit status, -1 if it would not die.
     */
    public int stopAsDeclared() {
        ServerFile.Stop how = program.stop();
        stopping = true;
        long deadline = System.nanoTime() + how.grace().toNanos();
        if (perflab.core.process.ProcessReaper.groupAlive(process.pid())) {
            if (!how.command().isEmpty()) {
                runStopCommand(how, deadline);
            } else if (!perflab.core.process.ProcessReaper.signalGroup(process.pid(), how.signal())) {
                process.destroy();
            }
            // the whole group has the grace: a start script dies at once, the JVM it forked is still shutting down
            while (perflab.core.process.ProcessReaper.groupAlive(process.pid()) && System.nanoTime() < deadline) {
                waitForExit(Duration.ofMillis(50));
            }
        }
        killGroup(); // whatever is left of it after the grace, also when it had exited on its own
        waitForExit(Duration.ofSeconds(5));
        return process.isAlive() ? -1 : process.exitValue();
    }

    /**
     * Runs a server's stop command (its output beside the server's), in a group of its own that is ended with it:
     * {@code catalina.sh stop} forks a JVM of its own. Bounded by the stop's deadline.
     */
    private void runStopCommand(ServerFile.Stop how, long deadline) {
        ProcessBuilder b = new ProcessBuilder(perflab.core.process.ProcessReaper.inOwnGroup(how.command()))
                .directory(program.workDir() == null ? null : program.workDir().toFile())
                .redirectInput(ProcessBuilder.Redirect.PIPE)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(runDir.resolve(name + "-stop.out").toFile()))
                .redirectErrorStream(true);
        b.environment().putAll(program.env());
        try {
            Process stopper = b.start();
            perflab.core.process.ProcessReaper.watch(stopper.pid());
            try {
                stopper.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } finally {
                perflab.core.process.ProcessReaper.killGroup(stopper.pid());
            }
        } catch (IOException e) {
            process.destroy(); // no stop command to run: the plain signal
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether it is a program stopped as its server file says rather than by perflab's protocol. */
    public boolean declaredStop() {
        return program != null;
    }

    /** Graceful stop (close stdin), then SIGTERM, then SIGKILL; the group's leftovers killed. The exit status. */
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
        killGroup(); // what it forked and left behind, also when it had exited on its own before
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

    /**
     * SIGKILL now, as a crash would end it (a fail-over run's fault): no goodbye to anything it holds. Expected, so
     * not an unexpected exit; does not wait.
     */
    public void killNow() {
        stopping = true;
        process.destroyForcibly();
        killGroup();
    }

    private void kill() {
        stopping = true;
        process.destroyForcibly();
        waitForExit(Duration.ofSeconds(5));
        killGroup();
    }

    /**
     * SIGKILL to its whole process group, when it leads one: the workers it forked are there even after it is gone
     * (reparented to init, they keep its group, and the kernel does not reuse a group's id while it has members).
     */
    private void killGroup() {
        if (!ownGroup) {
            return;
        }
        perflab.core.process.ProcessReaper.killGroup(process.pid());
    }

    @Override
    public void close() {
        if (process.isAlive() && program != null) {
            stopAsDeclared();
        } else if (process.isAlive()) {
            stop(Duration.ofSeconds(10));
        } else {
            killGroup();
        }
    }
}
