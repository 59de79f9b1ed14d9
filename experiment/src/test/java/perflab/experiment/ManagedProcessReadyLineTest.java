package perflab.experiment;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The READY line announces the main port and any further ones by name. */
class ManagedProcessReadyLineTest {
    @Test
    void readyLineGivesEveryNamedPort() {
        assertEquals(Map.of("port", 8080), ManagedProcess.readyPorts("PERFLAB-READY port=8080"));
        assertEquals(Map.of("port", 8080, "sip", 5060), ManagedProcess.readyPorts("PERFLAB-READY port=8080 sip=5060"));
    }

    @Test
    void wordsThatAreNotPortsAreIgnored() {
        assertEquals(Map.of("sip", 5060), ManagedProcess.readyPorts("PERFLAB-READY mode=fast sip=5060 port=x big=1234567"));
        assertEquals(Map.of(), ManagedProcess.readyPorts("PERFLAB-READY"));
    }
}
