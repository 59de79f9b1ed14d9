package perflab.core.sut;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.BindException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

/**
 * The SUT side of perflab's process protocol, used by every stack's main class:
 * <ul>
 *   <li>before that, a line {@code PERFLAB-FACT <name> <value>} for each of its
 *       {@linkplain RunningServer#startupFacts() startup facts} (name a Java identifier, value the rest of the
 *       line), which perflab keeps in run.json;</li>
 *   <li>a SUT whose start takes long (a database populated on first use) prints {@code PERFLAB-PROGRESS <what>}
 *       now and then ({@link #progress}): perflab's wait for READY counts from the last such line;</li>
 *   <li>on success it prints one line {@code PERFLAB-READY port=<port>} on stdout, followed by any further
 *       ports it serves by name ({@code PERFLAB-READY port=8080 sip=5060});</li>
 *   <li>on failure it prints {@code PERFLAB-FAILED <one-line reason>} and exits with status 3;</li>
 *   <li>a SUT that starts a back end of its own (the claims gateway started by hand) may say so before READY
 *       with {@code PERFLAB-BACKEND mode=... pid=<pid> ...}, for the person reading its output; perflab starts
 *       the processes it monitors itself (companions);</li>
 *   <li>it writes the effective JVM configuration to {@code --jvm-report <file>} if given;</li>
 *   <li>it stops gracefully and exits when its stdin reaches end of file, which happens when perflab closes
 *       the pipe or dies in any way (even SIGKILL), so a SUT never outlives its parent.</li>
 * </ul>
 */
public final class SutBootstrap {
    public static final String READY = "PERFLAB-READY";
    public static final String FAILED = "PERFLAB-FAILED";
    public static final String BACKEND = "PERFLAB-BACKEND";
    public static final String FACT = "PERFLAB-FACT";
    /** What a startup fact's name may be: a Java identifier without underscores or dollars (a JSON key as is). */
    public static final String FACT_NAME = "[A-Za-z][A-Za-z0-9]*";
    public static final String PROGRESS = "PERFLAB-PROGRESS";
    /** Settings every SUT takes. {@code exit-on-eof off} is for a SUT a user starts by hand. */
    static final Set<String> COMMON_SETTINGS = Set.of("host", "port", "jvm-report", "exit-on-eof");

    private SutBootstrap() {
    }

    /** Parses arguments, starts the server, reports readiness and blocks until stdin closes. */
    public static void run(String[] args, Set<String> stackSettings, ServerStarter starter) {
        PrintStream out = System.out;
        SutArgs parsed;
        RunningServer server;
        try {
            parsed = SutArgs.parse(args, stackSettings);
            server = starter.start(parsed);
        } catch (Throwable e) {
            out.println(FAILED + " " + describe(e, args));
            out.flush();
            System.exit(3);
            return;
        }
        try {
            String report = parsed.get("jvm-report", null);
            if (report != null) {
                Path file = Path.of(report);
                Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
                Files.writeString(tmp, EffectiveJvm.describe().toJson());
                Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            }
        } catch (IOException e) {
            System.err.println("could not write the JVM report: " + e.getMessage());
        }
        server.startupFacts().forEach((name, value) ->
                out.println(FACT + " " + name + " " + String.valueOf(value).replaceAll("[\\r\\n]+", " ")));
        StringBuilder ready = new StringBuilder(READY).append(" port=").append(server.port());
        server.otherPorts().forEach((name, port) -> ready.append(' ').append(name).append('=').append(port));
        out.println(ready);
        out.flush();

        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> stopQuietly(server, stopped), "sut-shutdown"));
        if (parsed.getBoolean("exit-on-eof", true)) {
            Thread watchdog = new Thread(() -> {
                awaitEndOfInput(System.in);
                System.exit(0); // runs the shutdown hook, which stops the server gracefully
            }, "sut-stdin-watchdog");
            watchdog.setDaemon(true);
            watchdog.start();
        }
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Says that a long start is still making progress ({@code PERFLAB-PROGRESS <what>} on stdout): perflab waits
     * for READY up to its ready timeout after the last such line. Call it every few seconds, not per row.
     */
    public static void progress(String what) {
        System.out.println(PROGRESS + " " + what.replaceAll("[\\r\\n]+", " "));
        System.out.flush();
    }

    private static void awaitEndOfInput(InputStream in) {
        byte[] sink = new byte[256];
        try {
            while (in.read(sink) >= 0) {
                // perflab writes nothing; we only wait for end of file
            }
        } catch (IOException e) {
            // a broken pipe means the parent is gone: same as end of file
        }
    }

    private static void stopQuietly(RunningServer server, CountDownLatch stopped) {
        try {
            server.stop();
        } catch (Throwable e) {
            System.err.println("graceful stop failed: " + e);
        } finally {
            stopped.countDown();
        }
    }

    private static String describe(Throwable e, String[] args) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        if (root instanceof BindException || e instanceof BindException) {
            return "cannot listen on port " + portOf(args) + ": it is in use (" + root.getMessage() + ")";
        }
        String message = e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
        return message.replace('\n', ' ');
    }

    private static String portOf(String[] args) {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals("--port")) {
                return args[i + 1];
            }
        }
        return "?";
    }
}
