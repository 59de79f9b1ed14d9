package perflab.experiment.run;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A server whose start takes longer than the ready timeout (trade populating a large database on first use) is
 * waited for as long as it keeps saying it progresses; one that goes quiet fails after the timeout. Real processes
 * (bash, which ends when its stdin closes, as a SUT does), generous margins: progress every 0.3 s against a 3 s timeout.
 */
class ManagedProcessProgressTest {
    @TempDir
    Path runDir;

    @Test
    void progressLinesKeepTheWaitGoingPastTheReadyTimeout() throws Exception {
        String script = "for i in $(seq 1 20); do echo \"PERFLAB-PROGRESS step $i\"; sleep 0.3; done; "
                + "echo 'PERFLAB-READY port=4321'; cat >/dev/null";
        long start = System.nanoTime();
        try (ManagedProcess p = ManagedProcess.start("sut", List.of("bash", "-c", script), runDir, Duration.ofSeconds(3))) {
            assertEquals(4321, p.port());
            assertTrue(System.nanoTime() - start > Duration.ofSeconds(3).toNanos(), "it waited past the timeout");
        }
    }

    @Test
    void aStartThatGoesQuietFailsAfterTheTimeoutOfItsLastProgressLine() {
        String script = "echo 'PERFLAB-PROGRESS starting'; sleep 0.5; echo 'PERFLAB-PROGRESS still'; cat >/dev/null";
        RunFailure failure = assertThrows(RunFailure.class,
                () -> ManagedProcess.start("sut", List.of("bash", "-c", script), runDir, Duration.ofSeconds(2)));
        assertEquals("the SUT did not report ready within 2 s of its last progress line", failure.getMessage());
    }
}
