package perflab.experiment;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import perflab.core.config.RunConfig;
import perflab.core.workload.SippLoad;
import perflab.experiment.load.SippCommand;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** What is checked about a workload's SIPp loads before any process starts, each refusal in one line. */
class SippLoadsTest {
    @TempDir
    Path home;

    @BeforeEach
    void needsSipp() {
        assumeTrue(SippCommand.installedExecutable().isPresent(), "sipp is not installed (Debian package sip-tester)");
    }

    private static String refusal(List<SippLoad> loads, Path home, Set<String> processes) {
        return assertThrows(IllegalArgumentException.class, () -> SippLoads.plan(loads, home, processes)).getMessage();
    }

    @Test
    void aLoadOfABuiltInOrAFileScenarioWithAKnownPortIsPlanned() throws Exception {
        Files.createDirectories(home.resolve("sipp"));
        Files.writeString(home.resolve("sipp/phone.xml"), "<scenario name=\"phone\"></scenario>");
        SippLoads loads = SippLoads.plan(List.of(SippLoad.calls("calls", "uac", "127.0.0.1:{sut.sip}", 10, 0, List.of()),
                SippLoad.answers("phone", "sipp/phone.xml", List.of("-aa"))), home, Set.of("sut"));
        assertFalse(loads.isEmpty());
        assertEquals(List.of("calls", "phone"), loads.names());
    }

    @Test
    void refusals() {
        assertEquals("SIPp load calls needs {sut.sip}, a port of the server side perflab starts: it cannot run with --target",
                refusal(List.of(SippLoad.calls("calls", "uac", "127.0.0.1:{sut.sip}", 10, 0, List.of())), home, Set.of()));
        assertEquals("SIPp load calls needs {store.sip}, but no process of the server side and no SIPp load that answers "
                + "is named store",
                refusal(List.of(SippLoad.calls("calls", "uac", "127.0.0.1:{store.sip}", 10, 0, List.of())), home, Set.of("sut")));
        assertEquals("SIPp load calls: target '127.0.0.1' is not host:port (127.0.0.1:{sut.sip})",
                refusal(List.of(SippLoad.calls("calls", "uac", "127.0.0.1", 10, 0, List.of())), home, Set.of("sut")));
        String missing = refusal(List.of(SippLoad.answers("phone", "sipp/none.xml", List.of())), home, Set.of("sut"));
        assertEquals("SIPp load phone: SIPp scenario file " + home.resolve("sipp/none.xml") + " does not exist or cannot be read", missing);
        assertEquals("two SIPp loads have the same name", refusal(List.of(SippLoad.answers("phone", "uas", List.of()),
                SippLoad.answers("phone", "uas", List.of())), home, Set.of("sut")));
        assertEquals("SIPp load calls: one that places calls needs a target and a rate, one that answers neither",
                assertThrows(IllegalArgumentException.class, () -> new SippLoad("calls", "uac", "127.0.0.1:5060", 0, 0, List.of())).getMessage());
    }

    @Test
    void anAnsweringLoadsPortCanBeNamedByTheLoadsThatStartAfterIt() {
        SippLoads loads = SippLoads.plan(List.of(SippLoad.answers("phone", "uas", List.of()),
                SippLoad.answers("line", "uas", List.of("-set", "phone", "127.0.0.1:{phone.port}")),
                SippLoad.calls("calls", "uac", "127.0.0.1:{sut.sip}", 10, 0, List.of("-rsa", "127.0.0.1:{line.port}"))),
                home, Set.of("sut"));
        assertEquals(List.of("phone", "line", "calls"), loads.names());
        assertTrue(loads.hasAnswerers());
        // with --target: answerers and a caller that names only their ports
        SippLoads external = SippLoads.plan(List.of(SippLoad.answers("phone", "uas", List.of()),
                SippLoad.calls("calls", "uac", "127.0.0.1:{phone.port}", 10, 0, List.of())), home, Set.of());
        assertEquals(List.of("phone", "calls"), external.names());
    }

    @Test
    void referencesToWhatDoesNotStartBeforeAreRefusedInOneLine() {
        SippLoad phone = SippLoad.answers("phone", "uas", List.of());
        assertEquals("SIPp load line needs {sut.sip}, but it answers, so it starts before the server side: it can name "
                + "only the port of an answering SIPp load declared before it",
                refusal(List.of(SippLoad.answers("line", "uas", List.of("-rsa", "127.0.0.1:{sut.sip}"))), home, Set.of("sut")));
        assertEquals("SIPp load line needs {phone.port}, but SIPp load phone does not start before it (answering loads "
                + "start in the order declared)",
                refusal(List.of(SippLoad.answers("line", "uas", List.of("-rsa", "127.0.0.1:{phone.port}")), phone), home,
                        Set.of("sut")));
        assertEquals("SIPp load calls needs {phone.sip}, but SIPp load phone has one port, {phone.port}",
                refusal(List.of(phone, SippLoad.calls("calls", "uac", "127.0.0.1:{phone.sip}", 10, 0, List.of())), home,
                        Set.of("sut")));
        assertEquals("SIPp load second needs {first.port}, but SIPp load first places calls and starts after the server "
                + "side: only an answering load's port can be named",
                refusal(List.of(SippLoad.calls("first", "uac", "127.0.0.1:{sut.sip}", 10, 0, List.of()),
                        SippLoad.calls("second", "uac", "127.0.0.1:{first.port}", 10, 0, List.of())), home, Set.of("sut")));
        assertEquals("SIPp load backend has the name of a process of the server side: the two would share run.json's and "
                + "summary.json's processes.backend; rename one",
                refusal(List.of(SippLoad.answers("backend", "uas", List.of())), home, Set.of("sut", "backend")));
    }

    @Test
    void sippEndsByItselfAfterTheLongestTheDriveCanLast() {
        RunConfig.Load timed = new RunConfig.Load(4, 0, "constant", Duration.ofSeconds(60), 0, Duration.ofSeconds(20), 0,
                Duration.ZERO, "on", Duration.ofSeconds(5), 1, 0, "http1", 1, null);
        assertEquals(Duration.ofSeconds(60 + 20 + 120), RunOrchestrator.longestDrive(timed));
    }
}
