package perflab.claims.backend;

import perflab.core.sut.SutBootstrap;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The back end in its own JVM, started by a gateway the way perflab starts a SUT: a child process on the
 * back end's own classpath, ready when it prints {@code PERFLAB-READY port=N}, and gone when its stdin closes
 * (so it dies with the gateway, even a SIGKILLed one). Any gateway stack (lean, camel) uses it.
 */
public final class BackendProcess implements AutoCloseable {
    private static final long READY_TIMEOUT_MS = 60_000;

    private final Process process;
    private final int port;

    private BackendProcess(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /**
     * Starts the back end.
     *
     * @param classpath the back end's classpath (a directory of jars is taken as {@code dir/*})
     * @param jvmFlags  the back end JVM's flags
     * @param settings  its server settings as {@code --name value} words
     */
    public static BackendProcess start(String classpath, List<String> jvmFlags, List<String> settings) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>();
        command.add(java);
        command.addAll(jvmFlags);
        command.add("-cp");
        command.add(Files.isDirectory(Path.of(classpath)) ? Path.of(classpath).toAbsolutePath() + "/*" : classpath);
        command.add(ClaimServicesBackend.class.getName());
        command.addAll(List.of("--host", "127.0.0.1", "--port", "0"));
        command.addAll(settings);
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            Thread killer = new Thread(() -> {
                try {
                    if (!process.waitFor(READY_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                        process.destroyForcibly(); // unblocks readLine below if READY never comes
                    }
                } catch (InterruptedException ignored) {
                    // readiness came first
                }
            }, "claims-backend-ready-timeout");
            killer.setDaemon(true);
            killer.start();
            String line = out.readLine();
            killer.interrupt();
            if (line == null || !line.startsWith(SutBootstrap.READY + " port=")) {
                throw new IOException("the claims back end did not start: " + (line == null ? "it exited" : line));
            }
            int port = Integer.parseInt(line.substring((SutBootstrap.READY + " port=").length()).trim());
            Thread drain = new Thread(() -> drain(out), "claims-backend-stdout");
            drain.setDaemon(true);
            drain.start();
            return new BackendProcess(process, port);
        } catch (IOException | RuntimeException e) {
            process.destroyForcibly();
            throw e;
        }
    }

    private static void drain(BufferedReader out) {
        try {
            while (out.readLine() != null) {
                // the back end prints nothing after READY but its metrics line; keep its pipe from filling
            }
        } catch (IOException ignored) {
            // gone
        }
    }

    public int port() {
        return port;
    }

    public long pid() {
        return process.pid();
    }

    /** Closes its stdin (its signal to stop) and waits for it; kills it if it does not go in time. */
    @Override
    public void close() {
        try {
            process.getOutputStream().close();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (IOException e) {
            process.destroyForcibly();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
