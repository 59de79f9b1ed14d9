package perflab.experiment.run;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import perflab.core.config.RunConfig;
import perflab.core.load.LoadSource;
import perflab.loadsource.sipp.SippLoad;
import perflab.loadsource.sipp.SippCommand;

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

/**
 * A run's load sources, with SIPp's plugin as the real one: what is checked before any process starts (each refusal
 * in one line), and how they are stopped together.
 */
class LoadSourcesTest {
    @TempDir
    Path home;

    @BeforeEach
    void needsSipp() {
        assumeTrue(SippCommand.installedExecutable().isPresent(), "sipp is not installed (Debian package sip-tester)");
    }

    private static String refusal(List<LoadSource> loads, Path home, Set<String> processes) {
        return assertThrows(IllegalArgumentException.class, () -> LoadSources.plan(loads, home, processes)).getMessage();
    }

    @Test
    void aLoadOfABuiltInOrAFileScenarioWithAKnownPortIsPlanned() throws Exception {
        Files.createDirectories(home.resolve("sipp"));
        Files.writeString(home.resolve("sipp/phone.xml"), "<scenario name=\"phone\"></scenario>");
        LoadSources loads = LoadSources.plan(List.of(SippLoad.calls("calls", "uac", "127.0.0.1:{sut.sip}", 10, 0, List.of()),
                SippLoad.answers("phone", "sipp/phone.xml", List.of("-aa"))), home, Set.of("sut"));
        assertFalse(loads.isEmpty());
        assertEquals(List.of("calls", "phone"), names(loads));
    }

    @Test
    void refusals() {
        assertEquals("load source calls (sipp) needs {sut.sip}, a port of the server side perflab starts: it cannot run with --target",
                refusal(List.of(SippLoad.calls("calls", "uac", "127.0.0.1:{sut.sip}", 10, 0, List.of())), home, Set.of()));
        assertEquals("load source calls (sipp) needs {store.sip}, but no process of the server side and no load source that answers "
                + "is named store",
                refusal(List.of(SippLoad.calls("calls", "uac", "127.0.0.1:{store.sip}", 10, 0, List.of())), home, Set.of("sut")));
        assertEquals("SIPp load calls: target '127.0.0.1' is not host:port (127.0.0.1:{sut.sip})",
                refusal(List.of(SippLoad.calls("calls", "uac", "127.0.0.1", 10, 0, List.of())), home, Set.of("sut")));
        String missing = refusal(List.of(SippLoad.answers("phone", "sipp/none.xml", List.of())), home, Set.of("sut"));
        assertEquals("SIPp load phone: SIPp scenario file " + home.resolve("sipp/none.xml") + " does not exist or cannot be read", missing);
        assertEquals("two load sources have the same name", refusal(List.of(SippLoad.answers("phone", "uas", List.of()),
                SippLoad.answers("phone", "uas", List.of())), home, Set.of("sut")));
        assertEquals("SIPp load calls: one that places calls needs a target and a rate, one that answers neither",
                assertThrows(IllegalArgumentException.class, () -> new SippLoad("calls", "uac", "127.0.0.1:5060", 0, 0, List.of())).getMessage());
    }

    @Test
    void anAnsweringLoadsPortCanBeNamedByTheLoadsThatStartAfterIt() {
        LoadSources loads = LoadSources.plan(List.of(SippLoad.answers("phone", "uas", List.of()),
                SippLoad.answers("line", "uas", List.of("-set", "phone", "127.0.0.1:{phone.port}")),
                SippLoad.calls("calls", "uac", "127.0.0.1:{sut.sip}", 10, 0, List.of("-rsa", "127.0.0.1:{line.port}"))),
                home, Set.of("sut"));
        assertEquals(List.of("phone", "line", "calls"), names(loads));
        assertTrue(loads.hasAnswerers());
        // with --target: answerers and a caller that names only their ports
        LoadSources external = LoadSources.plan(List.of(SippLoad.answers("phone", "uas", List.of()),
                SippLoad.calls("calls", "uac", "127.0.0.1:{phone.port}", 10, 0, List.of())), home, Set.of());
        assertEquals(List.of("phone", "calls"), names(external));
    }

    @Test
    void referencesToWhatDoesNotStartBeforeAreRefusedInOneLine() {
        SippLoad phone = SippLoad.answers("phone", "uas", List.of());
        assertEquals("load source line (sipp) needs {sut.sip}, but it answers, so it starts before the server side: it can "
                + "name only the port of an answering load source declared before it",
                refusal(List.of(SippLoad.answers("line", "uas", List.of("-rsa", "127.0.0.1:{sut.sip}"))), home, Set.of("sut")));
        assertEquals("load source line (sipp) needs {phone.port}, but load source phone (sipp) does not start before it "
                + "(answering sources start in the order declared)",
                refusal(List.of(SippLoad.answers("line", "uas", List.of("-rsa", "127.0.0.1:{phone.port}")), phone), home,
                        Set.of("sut")));
        assertEquals("load source calls (sipp) needs {phone.sip}, but load source phone (sipp) has the ports {phone.port}",
                refusal(List.of(phone, SippLoad.calls("calls", "uac", "127.0.0.1:{phone.sip}", 10, 0, List.of())), home,
                        Set.of("sut")));
        assertEquals("load source second (sipp) needs {first.port}, but load source first (sipp) loads the SUT and starts "
                + "after the server side: only an answering source's port can be named",
                refusal(List.of(SippLoad.calls("first", "uac", "127.0.0.1:{sut.sip}", 10, 0, List.of()),
                        SippLoad.calls("second", "uac", "127.0.0.1:{first.port}", 10, 0, List.of())), home, Set.of("sut")));
        assertEquals("load source backend (sipp) has the name of a process of the server side: the two would share run.json's and "
                + "summary.json's processes.backend; rename one",
                refusal(List.of(SippLoad.answers("backend", "uas", List.of())), home, Set.of("sut", "backend")));
    }

    private static List<String> names(LoadSources loads) {
        return loads.declared().stream().map(LoadSource::name).toList();
    }

    /**
     * Two SIPps holding calls that will not end within the grace (each call paused 60 s): both are asked to stop,
     * wait out one grace together and are then ended, so the stop lasts about one grace, not one per source.
     */
    @Test
    void stopGivesSeveralSourcesOneGraceTogether(@TempDir Path run) throws Exception {
        LoadSources loads = LoadSources.plan(List.of(SippLoad.answers("phone", "uas", List.of()),
                SippLoad.calls("uac-1", "uac", "127.0.0.1:{phone.port}", 10, 2, List.of("-d", "60000")),
                SippLoad.calls("uac-2", "uac", "127.0.0.1:{phone.port}", 10, 2, List.of("-d", "60000"))), home, Set.of());
        try (loads) {
            loads.startAnswerers(run, Duration.ofSeconds(90));
            loads.startLoaders(run, java.util.Map.of(), Duration.ofSeconds(90));
            // each has placed its two calls, now on hold (SIPp writes its statistics once a second)
            perflab.testsupport.Poll.until("both callers to have placed their two calls", Duration.ofSeconds(30), () -> {
                List<Double> placed = new java.util.ArrayList<>();
                loads.periods().forEach((name, p) -> {
                    if (name.startsWith("uac")) {
                        placed.add(p.rows().stream().mapToDouble(r -> r.values().getOrDefault("callsCreated", 0.0)).sum());
                    }
                });
                return placed;
            }, placed -> placed.size() == 2 && placed.stream().allMatch(n -> n >= 2));
            Duration grace = Duration.ofSeconds(4);
            long start = System.nanoTime();
            java.util.Map<String, Integer> exits = loads.stop(grace);
            double seconds = (System.nanoTime() - start) / 1e9;
            assertEquals(List.of("phone", "uac-1", "uac-2"), List.copyOf(exits.keySet()));
            loads.exitCodes().forEach((name, code) -> assertTrue(code != null, name + " ended"));
            // at least the grace: the calls on hold kept them; well under two graces: one grace for all
            assertTrue(seconds >= 3.9 && seconds < 7, "three SIPps holding calls stopped in " + seconds + " s");
        }
    }

    @Test
    void sippEndsByItselfAfterTheLongestTheDriveCanLast() {
        RunConfig.Load timed = new RunConfig.Load(4, 0, "constant", Duration.ofSeconds(60), 0, Duration.ofSeconds(20), 0,
                Duration.ZERO, "on", Duration.ofSeconds(5), 1, 0, "http1", 1, null);
        assertEquals(Duration.ofSeconds(60 + 20 + 120), RunPreflight.longestDrive(timed));
    }
}
