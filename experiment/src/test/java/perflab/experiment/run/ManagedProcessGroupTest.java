package perflab.experiment.run;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import perflab.testsupport.Poll;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A process perflab starts in its own session (setsid, as every companion and SUT) is ended with what it forked:
 * Kamailio's workers outlived a Kamailio that died starting up (its main process gone, they were reparented to init
 * and no longer its descendants), and ran on after the run and the test that started it.
 */
class ManagedProcessGroupTest {
    @TempDir
    Path dir;
    private long worker;

    /** A failing test must not leave its worker behind either. */
    @org.junit.jupiter.api.AfterEach
    void endTheWorker() {
        ProcessHandle.of(worker).ifPresent(ProcessHandle::destroyForcibly);
    }

    @Test
    void stoppingItEndsTheWorkersItForked() throws Exception {
        Path pidFile = dir.resolve("worker.pid");
        ManagedProcess p = start(pidFile, "wait");
        worker = workerPid(pidFile);
        assertTrue(alive(worker), "the worker runs");
        p.stop(Duration.ofSeconds(1)); // bash does not read its stdin: SIGTERM ends the leader, not its worker
        Poll.until("worker " + worker + " to end with its leader's stop", Duration.ofSeconds(10), () -> !alive(worker));
    }

    @Test
    void workersLeftByALeaderThatDiedOnItsOwnAreEndedToo() throws Exception {
        Path pidFile = dir.resolve("worker.pid");
        ManagedProcess p = start(pidFile, "sleep 0.2; exit 3");
        worker = workerPid(pidFile);
        Poll.until("the leader to exit", Duration.ofSeconds(10), () -> p.exitCode() != null);
        assertTrue(alive(worker), "its worker, reparented, runs on");
        p.close();
        Poll.until("worker " + worker + " to end with its dead leader's close", Duration.ofSeconds(10), () -> !alive(worker));
        assertFalse(alive(worker));
    }

    private ManagedProcess start(Path pidFile, String then) throws Exception {
        // the worker ignores SIGTERM, as a forked worker busy elsewhere may: only the group's SIGKILL ends it for sure
        String script = "(trap '' TERM; exec sleep 120) & echo $! > " + pidFile + "; " + then;
        return ManagedProcess.start("worker-test", List.of("/usr/bin/setsid", "bash", "-c", script), dir,
                Duration.ofSeconds(30), null, java.util.Map.of(), dir);
    }

    private static long workerPid(Path pidFile) throws Exception {
        Poll.until("the worker's pid file", Duration.ofSeconds(10),
                () -> Files.exists(pidFile) && !Files.readString(pidFile).isBlank());
        return Long.parseLong(Files.readString(pidFile).trim());
    }

    private static boolean alive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }
}
