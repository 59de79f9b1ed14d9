package perflab.loadsource.sipp;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SippCommandTest {
    @TempDir
    Path dir;

    private SippCommand.Builder uac() {
        return SippCommand.builder(SippScenario.builtIn("uac")).target("127.0.0.1", 5060).localPort(5070)
                .maxCalls(100).timeout(Duration.ofSeconds(30)).files(dir, "uac");
    }

    @Test
    void buildsABoundedForegroundCommandWithStatisticsEverySecond() {
        SippCommand c = uac().rate(20).callLimit(50).recvTimeout(Duration.ofSeconds(2)).traceResponseTimes(10)
                .extra("-aa").build();
        Path stat = dir.toAbsolutePath().resolve("uac.stat.csv");
        Path err = dir.toAbsolutePath().resolve("uac.errors.log");
        assertEquals(List.of("sipp", "-sn", "uac", "127.0.0.1:5060", "-i", "127.0.0.1", "-p", "5070", "-r", "20",
                "-l", "50", "-m", "100", "-timeout", "30s", "-recv_timeout", "2000ms",
                "-trace_stat", "-fd", "1", "-stf", stat.toString(), "-trace_rtt", "-rtt_freq", "10",
                "-trace_err", "-error_file", err.toString(), "-nostdin", "-aa"), c.arguments());
        assertEquals(stat, c.statisticsFile());
        assertEquals(err, c.errorFile());
        assertEquals(Duration.ofSeconds(30), c.timeout());
        assertEquals(dir.toAbsolutePath().resolve("uac_4242_rtt.csv"), c.responseTimeFile(dir, 4242).orElseThrow());
        assertTrue(uac().build().responseTimeFile(dir, 1).isEmpty());
        assertTrue(!c.arguments().contains("-bg"));
    }

    @Test
    void aScenarioFileIsPassedByItsAbsolutePathAndNamedAsSippNamesIt() throws Exception {
        Path xml = Files.writeString(dir.resolve("notifier.xml"), "<scenario/>");
        SippCommand c = SippCommand.builder(SippScenario.file(xml))
                .localPort(5080).maxCalls(1).timeout(Duration.ofSeconds(5)).files(dir, "notifier").build();
        assertEquals(xml.toAbsolutePath().toString(), c.arguments().get(c.arguments().indexOf("-sf") + 1));
        assertEquals("notifier", c.scenario().name());
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                () -> SippScenario.file(dir.resolve("none.xml")));
        assertTrue(missing.getMessage().contains("does not exist"), missing.getMessage());
    }

    @Test
    void sendsLoadOnlyToLoopbackOrTheBenchmarkNetwork() {
        for (String ok : List.of("127.0.0.1", "127.9.9.9", "localhost", "::1", "[::1]", "198.18.0.1", "198.19.255.254")) {
            SippCommand.allowedAddress("target", ok);
        }
        assertEquals("[::1]:5060", SippCommand.builder(SippScenario.builtIn("uac")).target("::1", 5060).localPort(5070)
                .maxCalls(1).timeout(Duration.ofSeconds(1)).files(dir, "x").build().arguments().get(3));
        for (String refused : List.of("10.0.0.1", "192.168.1.10", "198.20.0.1", "198.17.255.255", "8.8.8.8", "2001:db8::1")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> uac().target(refused, 5060));
            assertTrue(e.getMessage().contains("only to loopback or to the 198.18.0.0/15 test network"), e.getMessage());
        }
        IllegalArgumentException name = assertThrows(IllegalArgumentException.class, () -> uac().target("sip.example.com", 5060));
        assertTrue(name.getMessage().contains("is a name"), name.getMessage());
        assertThrows(IllegalArgumentException.class, () -> uac().localAddress("10.1.1.1"));
        assertThrows(IllegalArgumentException.class, () -> uac().target("999.1.1.1", 5060));
    }

    @Test
    void refusesIncompleteOrUnboundedCommandsInOneLine() {
        List<Runnable> bad = List.of(
                () -> SippCommand.builder(SippScenario.builtIn("uac")).target("127.0.0.1", 5060).maxCalls(1)
                        .timeout(Duration.ofSeconds(1)).files(dir, "x").build(),                         // no local port
                () -> SippCommand.builder(SippScenario.builtIn("uac")).target("127.0.0.1", 5060).localPort(5070)
                        .timeout(Duration.ofSeconds(1)).files(dir, "x").build(),                         // no -m
                () -> SippCommand.builder(SippScenario.builtIn("uac")).target("127.0.0.1", 5060).localPort(5070)
                        .maxCalls(1).files(dir, "x").build(),                                            // no -timeout
                () -> SippCommand.builder(SippScenario.builtIn("uac")).target("127.0.0.1", 5060).localPort(5070)
                        .maxCalls(1).timeout(Duration.ofSeconds(1)).build(),                             // no files
                () -> SippCommand.builder(SippScenario.builtIn("uac")).localPort(5070).maxCalls(1)
                        .timeout(Duration.ofSeconds(1)).files(dir, "x").build(),                         // uac, no target
                () -> uac().rate(0), () -> uac().rate(Double.NaN), () -> uac().callLimit(0), () -> uac().maxCalls(0),
                () -> uac().timeout(Duration.ofMillis(500)), () -> uac().localPort(0), () -> uac().localPort(70000),
                () -> uac().target("127.0.0.1", 0), () -> uac().traceResponseTimes(0), () -> uac().files(dir, "a b"),
                () -> uac().extra("-bg"), () -> uac().extra("-m", "5"), () -> uac().extra("-periodic_rtd"),
                () -> SippScenario.builtIn("uacx"));
        for (Runnable r : bad) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, r::run);
            assertTrue(!e.getMessage().isBlank() && !e.getMessage().contains("\n"), e.getMessage());
        }
        IllegalArgumentException bg = assertThrows(IllegalArgumentException.class, () -> uac().extra("-bg"));
        assertTrue(bg.getMessage().contains("detach"), bg.getMessage());
    }

    @Test
    void explainsSippExitStatuses() {
        assertEquals("all calls succeeded", SippExit.explain(0));
        assertTrue(SippExit.explain(1).startsWith("at least one call failed"));
        assertTrue(SippExit.explain(97).contains("-timeout"));
        assertTrue(SippExit.explain(254).contains("bind"));
        assertTrue(SippExit.explain(255).contains("fatal"));
        assertTrue(SippExit.explain(137).contains("SIGKILL"));
        assertTrue(SippExit.explain(42).contains("unexpected status 42"));
    }
}
