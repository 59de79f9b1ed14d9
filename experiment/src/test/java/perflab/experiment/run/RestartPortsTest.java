package perflab.experiment.run;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * An instance started again ({@code --restart-instance-at}) asks for the ports it had: the proxies in front and its
 * partner name them. Its HTTP port in {@code --port}, any other port its READY line announced in {@code --NAME-port},
 * and a port perflab chose left as the command already names it.
 */
class RestartPortsTest {
    @Test
    void theCommandAsksForTheAnnouncedPortsButNotTheChosenOnes() {
        List<String> command = List.of("java", "-jar", "sut.jar", "--port", "0", "--replica-port", "41000");
        List<String> pinned = ServerProcesses.pinned(command, Map.of("port", 38080, "sip", 45060, "replica", 41000),
                List.of("replica"));
        assertEquals(List.of("java", "-jar", "sut.jar", "--port", "38080", "--replica-port", "41000", "--sip-port",
                "45060"), pinned);
    }

    @Test
    void aFlagAlreadyThereIsReplacedNotRepeated() {
        List<String> pinned = ServerProcesses.pinned(List.of("sut", "--sip-port", "0"), Map.of("sip", 45060), List.of());
        assertEquals(List.of("sut", "--sip-port", "45060"), pinned);
    }
}
