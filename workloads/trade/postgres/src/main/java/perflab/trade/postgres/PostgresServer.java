package perflab.trade.postgres;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A postmaster running on a data directory as this JVM's child (not daemonised by pg_ctl: its process tree stays
 * under the companion, where perflab samples it), listening on 127.0.0.1 only, logging to stderr, which goes on to
 * this JVM's stderr (the run's {@code postgres.err}) with its last lines kept for error messages.
 */
final class PostgresServer {
    /** The superuser initdb made, as perflab's URLs name it. */
    static final String SUPERUSER = "postgres";
    private static final int TAIL_LINES = 30;

    private final Process process;
    private final int port;
    private final Path data;
    /** Whether postmaster.pid carries the postmaster's status (PostgreSQL 10 and later). */
    private final boolean statusLine;
    private final Deque<String> tail = new ArrayDeque<>();
    private Thread pump;

    private PostgresServer(Process process, int port, Path data, boolean statusLine) {
        this.process = process;
        this.port = port;
        this.data = data;
        this.statusLine = statusLine;
    }

    /**
     * Starts {@code postgres} on {@code data} with {@code settings} as {@code -c name=value}, then the companion's
     * own: listen on 127.0.0.1:{@code port} only, the unix socket in {@code socketDir} (none when its path would be
     * too long for a socket address).
     */
    static PostgresServer start(PostgresInstall install, ClusterOwner owner, Path data, Path socketDir, int port,
                                Map<String, String> settings) throws IOException {
        List<String> command = new ArrayList<>(List.of(install.postgres().toString(), "-D", data.toString()));
        settings.forEach((name, value) -> command.addAll(List.of("-c", name + "=" + value)));
        // a unix socket's path is at most 107 bytes
        boolean socketFits = socketDir.resolve(".s.PGSQL." + port + ".lock").toString().length() <= 100;
        command.addAll(List.of("-c", "listen_addresses=127.0.0.1", "-c", "port=" + port,
                "-c", "unix_socket_directories=" + (socketFits ? socketDir.toString() : "")));
        ProcessBuilder builder = new ProcessBuilder(owner.runTiedToThisThread(command)).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        builder.environment().putAll(Commands.ENVIRONMENT);
        PostgresServer server = new PostgresServer(builder.start(), port, data, install.major() >= 10);
        server.pumpLog();
        return server;
    }

    private void pumpLog() {
        pump = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    System.err.println(line);
                    synchronized (tail) {
                        if (tail.size() == TAIL_LINES) {
                            tail.removeFirst();
                        }
                        tail.addLast(line);
                    }
                }
            } catch (IOException e) {
                // the server is gone
            }
        }, "postgres-log");
        pump.setDaemon(true);
        pump.start();
    }

    /**
     * Waits until a connection works (true), the server exits (false: {@link #exitReason}), or {@code timeout}
     * passes (IllegalStateException). It first waits for postmaster.pid to say {@code ready}, so that no attempt
     * meets a server still starting (each would log a FATAL line).
     */
    boolean awaitReady(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                return false;
            }
            if (!saysReady()) {
                Thread.sleep(50);
                continue;
            }
            try (Connection c = connect("postgres")) {
                c.createStatement().execute("SELECT 1");
                return true;
            } catch (SQLException e) {
                // still starting (or recovering)
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("postgres did not accept connections within " + timeout.toSeconds() + " s: "
                + lastLogLine());
    }

    /** Whether line 8 of postmaster.pid, the postmaster's status, says ready (true when there is no such line). */
    private boolean saysReady() {
        if (!statusLine) {
            return true;
        }
        try {
            List<String> lines = java.nio.file.Files.readAllLines(data.resolve("postmaster.pid"));
            return lines.size() >= 8 && lines.get(7).trim().equals("ready");
        } catch (java.nio.file.NoSuchFileException e) {
            return false; // not written yet
        } catch (IOException e) {
            return true;
        }
    }

    /** Whether it exited because another process had its port. */
    boolean lostItsPort() {
        return log().stream().anyMatch(l -> l.contains("Address already in use"));
    }

    /** Its last FATAL or PANIC line (else its last line), for a one-line message. */
    String exitReason() {
        List<String> lines = log();
        for (int i = lines.size() - 1; i >= 0; i--) {
            if (lines.get(i).contains("FATAL:") || lines.get(i).contains("PANIC:")) {
                return lines.get(i).substring(lines.get(i).indexOf(lines.get(i).contains("FATAL:") ? "FATAL:" : "PANIC:"));
            }
        }
        return lastLogLine();
    }

    private String lastLogLine() {
        List<String> lines = log();
        return lines.isEmpty() ? "it wrote nothing" : lines.get(lines.size() - 1);
    }

    private List<String> log() {
        if (!process.isAlive()) {
            try {
                pump.join(2000); // it may still be reading the last lines of a process that just exited
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        synchronized (tail) {
            return new ArrayList<>(tail);
        }
    }

    /** A connection to {@code database} as the superuser. */
    Connection connect(String database) throws SQLException {
        return DriverManager.getConnection(url(port, database));
    }

    /** The JDBC URL of {@code database} on a server of this companion's at {@code port}. */
    static String url(int port, String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database + "?user=" + SUPERUSER
                + "&connectTimeout=5&socketTimeout=30&ApplicationName=perflab-postgres-companion";
    }

    int port() {
        return port;
    }

    long pid() {
        return process.pid();
    }

    boolean alive() {
        return process.isAlive();
    }

    /**
     * PostgreSQL's fast shutdown (SIGINT: sessions ended, a checkpoint, exit), waited for within {@code grace};
     * then immediate shutdown (SIGQUIT), then SIGKILL for it and every process under it. Returns whether it shut down
     * cleanly (a data directory fit to be kept).
     */
    boolean stop(Duration grace) throws InterruptedException {
        List<ProcessHandle> tree = process.descendants().toList();
        boolean clean = false;
        if (process.isAlive()) {
            signal("INT");
            if (process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                clean = process.exitValue() == 0;
            } else {
                System.err.println("postgres: no fast shutdown within " + grace.toSeconds() + " s: immediate shutdown");
                signal("QUIT");
                if (!process.waitFor(5, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    process.waitFor(5, TimeUnit.SECONDS);
                }
            }
        } else {
            clean = false; // it died on its own: its data directory is not known to be consistent
        }
        for (ProcessHandle h : tree) { // its backends exit with it; make sure none is left
            if (!h.onExit().completeOnTimeout(h, 5, TimeUnit.SECONDS).join().isAlive()) {
                continue;
            }
            h.destroyForcibly();
        }
        return clean;
    }

    private void signal(String signal) {
        try {
            Commands.run(List.of("kill", "-s", signal, Long.toString(process.pid())), Duration.ofSeconds(10), "kill");
        } catch (IllegalStateException e) {
            // gone meanwhile
        }
    }
}
