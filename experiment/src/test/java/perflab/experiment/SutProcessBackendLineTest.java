package perflab.experiment;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The back end a SUT reports on its PERFLAB-BACKEND line is monitored only when it is a process of its own. */
class SutProcessBackendLineTest {
    @Test
    void separateProcessIsTakenOwnAndExternalAreNot() {
        assertEquals(4242, SutProcess.backendPid("PERFLAB-BACKEND mode=separate-jvm pid=4242 port=38001", 17));
        assertEquals(-1, SutProcess.backendPid("PERFLAB-BACKEND mode=same-jvm pid=17 port=38001", 17));
        assertEquals(-1, SutProcess.backendPid("PERFLAB-BACKEND mode=external url=http://127.0.0.1:9000", 17));
    }
}
