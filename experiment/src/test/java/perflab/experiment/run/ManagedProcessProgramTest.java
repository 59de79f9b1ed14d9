package perflab.experiment.run;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import perflab.core.process.LocalSockets;
import perflab.core.server.ServerFile;
import perflab.core.server.ServerPlan;
import perflab.testsupport.Poll;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A program from a server file knows nothing of perflab: perflab knows it ready the file's way (an HTTP status, a
 * line of its output, a port open), stops it the file's way, and ends its whole tree whatever it does.
 */
class ManagedProcessProgramTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final ServerFile.Stop TERM = new ServerFile.Stop("TERM", List.of(), Duration.ofSeconds(10));

    @TempDir
    Path dir;
    private final List<ManagedProcess> started = new ArrayList<>();

    @AfterEach
    void endThem() {
        started.forEach(ManagedProcess::close);
    }

    private ManagedProcess start(String script, ServerFile.Ready ready, ServerFile.Stop stop, Map<String, Integer> ports)
            throws RunFailure {
        ServerPlan.Program program = new ServerPlan.Program(Map.of("GREETING", "hello from env"), dir,
                Map.of(dir.resolve("conf/app.conf"), "written"), List.copyOf(ports.keySet()), null, ready, stop, null, null);
        ManagedProcess p = ManagedProcess.startProgram("sut", List.of("bash", "-c", script), dir, program, ports);
        started.add(p);
        return p;
    }

    private static ServerFile.Ready line(String regex) {
        return new ServerFile.Ready(ServerFile.Ready.Kind.LINE, regex, 0, 0, TIMEOUT);
    }

    @Test
    void readyOnALineOfItsErrorOutputWithItsEnvironmentAndFiles() throws Exception {
        ManagedProcess p = start("cat conf/app.conf; echo; echo \"$GREETING\"; sleep 0.3; echo 'Server startup in 12 ms' >&2; "
                + "exec sleep 120", line("startup in \\d+ ms"), TERM, Map.of());
        assertTrue(p.alive());
        assertEquals(List.of("written", "hello from env"), Files.readAllLines(dir.resolve("sut.out")));
        assertTrue(Files.readString(dir.resolve("sut.err")).contains("Server startup in 12 ms"));
        int status = p.stopAsDeclared();
        assertEquals(128 + 15, status, "ended by its SIGTERM");
    }

    @Test
    void readyWhenItsHttpUrlAnswersAStatusInTheRange() throws Exception {
        int port = LocalSockets.freePort();
        ServerFile.Ready http = new ServerFile.Ready(ServerFile.Ready.Kind.HTTP, "http://127.0.0.1:" + port + "/",
                200, 399, TIMEOUT);
        ManagedProcess p = start("sleep 0.5; exec python3 -m http.server " + port + " --bind 127.0.0.1", http, TERM,
                Map.of("port", port));
        assertTrue(ProgramReadiness.answers(http), "it serves once perflab calls it ready");
        assertEquals(port, p.port());
    }

    @Test
    void readyWhenItsPortAcceptsAConnection() throws Exception {
        int port = LocalSockets.freePort();
        ServerFile.Ready tcp = new ServerFile.Ready(ServerFile.Ready.Kind.TCP, "port", 0, 0, TIMEOUT);
        start("sleep 0.3; exec python3 -m http.server " + port + " --bind 127.0.0.1", tcp, TERM, Map.of("port", port));
        assertTrue(ProgramReadiness.accepts(port));
    }

    @Test
    void oneThatExitsAtOnceFailsWithItsStatusAndItsLastLines() {
        RunFailure e = assertThrows(RunFailure.class, () -> start("echo 'no config here' >&2; exit 3",
                new ServerFile.Ready(ServerFile.Ready.Kind.TCP, "port", 0, 0, TIMEOUT), TERM, Map.of("port", 1)));
        assertEquals("the SUT failed to start: it exited with status 3 before it was ready", e.getMessage());
        assertNotNull(e.detail());
        assertTrue(e.detail().contains("no config here"), e.detail());
    }

    @Test
    void oneThatNeverGetsReadyIsEndedAfterItsTimeoutWithItsTree() throws Exception {
        Path pidFile = dir.resolve("child.pid");
        ServerFile.Ready never = new ServerFile.Ready(ServerFile.Ready.Kind.LINE, "never said", 0, 0, Duration.ofSeconds(2));
        RunFailure e = assertThrows(RunFailure.class, () -> start("sleep 120 & echo $! > " + pidFile + "; wait", never,
                TERM, Map.of()));
        assertEquals("the SUT was not ready (a line of its output matching never said) within 2 s", e.getMessage());
        long child = Long.parseLong(Files.readString(pidFile).trim());
        Poll.until("its child " + child + " to end", Duration.ofSeconds(10), () -> ProcessHandle.of(child).isEmpty()
                || !ProcessHandle.of(child).get().isAlive());
    }

    @Test
    void oneThatIgnoresItsStopSignalIsKilledWithItsTreeAfterTheGrace() throws Exception {
        Path pidFile = dir.resolve("child.pid");
        ServerFile.Stop shortGrace = new ServerFile.Stop("TERM", List.of(), Duration.ofSeconds(1));
        ManagedProcess p = start("trap '' TERM; (trap '' TERM; exec sleep 120) & echo $! > " + pidFile
                + "; echo up; while :; do sleep 0.1; done", line("^up$"), shortGrace, Map.of());
        long child = Long.parseLong(Files.readString(pidFile).trim());
        long t0 = System.nanoTime();
        assertEquals(128 + 9, p.stopAsDeclared(), "SIGKILL after the grace");
        assertTrue(System.nanoTime() - t0 >= Duration.ofSeconds(1).toNanos(), "it had its grace");
        assertFalse(p.alive());
        Poll.until("its child " + child + " to end", Duration.ofSeconds(10), () -> ProcessHandle.of(child).isEmpty()
                || !ProcessHandle.of(child).get().isAlive());
    }

    @Test
    void oneThatClosesAnOutputBeforeItIsReadyIsStillWaitedFor() throws Exception {
        ManagedProcess p = start("exec 2>&-; sleep 0.5; echo ready; exec sleep 120", line("^ready$"), TERM, Map.of());
        assertTrue(p.alive(), "closing its stderr is no exit");
    }

    @Test
    void theWholeGroupHasItsGraceNotOnlyTheScriptPerflabStarted() throws Exception {
        Path done = dir.resolve("jvm-shut-down");
        // the script dies on TERM at once; its child, as a JVM running its shutdown hooks, takes a second
        ManagedProcess p = start("(trap 'sleep 1; touch " + done + "; exit 0' TERM; while :; do sleep 0.05; done) & "
                + "echo up; wait", line("^up$"), TERM, Map.of());
        p.stopAsDeclared();
        assertTrue(Files.exists(done), "the forked child finished its shutdown within the grace");
    }

    @Test
    void aStopCommandsOwnChildrenEndWithIt() throws Exception {
        Path flag = dir.resolve("stop-now");
        Path childPid = dir.resolve("stopper-child.pid");
        ServerFile.Stop forking = new ServerFile.Stop("TERM", List.of("bash", "-c", "sleep 300 & echo $! > " + childPid
                + "; touch " + flag + "; wait"), Duration.ofSeconds(5));
        ManagedProcess p = start("echo up; while [ ! -e " + flag + " ]; do sleep 0.05; done", line("^up$"), forking,
                Map.of());
        assertEquals(0, p.stopAsDeclared());
        long child = Long.parseLong(Files.readString(childPid).trim());
        Poll.until("the stop command's child " + child + " to end", Duration.ofSeconds(10), () -> ProcessHandle.of(child)
                .isEmpty() || !ProcessHandle.of(child).get().isAlive());
    }

    @Test
    void aStopCommandStopsIt() throws Exception {
        Path flag = dir.resolve("stop-now");
        ServerFile.Stop byCommand = new ServerFile.Stop("TERM", List.of("touch", flag.toString()), Duration.ofSeconds(30));
        ManagedProcess p = start("trap '' TERM; echo up; while [ ! -e " + flag + " ]; do sleep 0.05; done; exit 7",
                line("^up$"), byCommand, Map.of());
        assertEquals(7, p.stopAsDeclared(), "it left on its stop command, not on a signal");
    }
}
