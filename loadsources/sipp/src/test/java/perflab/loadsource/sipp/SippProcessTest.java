package perflab.loadsource.sipp;

import perflab.core.process.LocalSockets;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import perflab.testsupport.Poll;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Real SIPp on loopback. Every instance is bounded by -m and -timeout and every wait by a deadline far above what
 * the work needs (a few seconds), so a busy shared machine makes a test slower, never red.
 */
@Timeout(180)
class SippProcessTest {
    private static final Duration START = Duration.ofSeconds(20);
    private static final Duration END = Duration.ofSeconds(90);

    @TempDir
    Path run;

    @BeforeEach
    void needsSipp() {
        assumeTrue(SippCommand.installedExecutable().isPresent(), "sipp is not installed (Debian package sip-tester)");
    }

    private static int freeUdpPort() throws IOException {
        return LocalSockets.freeUdpPort();
    }

    private SippCommand.Builder uas(int port, long calls) {
        return SippCommand.builder(SippScenario.builtIn("uas")).localPort(port).maxCalls(calls)
                .timeout(Duration.ofSeconds(60)).files(run, "uas");
    }

    @Test
    void aUacsCallsAnsweredByAUasAreCountedAndTheRowsAddUp() throws Exception {
        int uasPort = freeUdpPort();
        try (SippProcess uas = SippProcess.start(uas(uasPort, 40).build(), run, "uas")) {
            uas.awaitStarted(START);
            SippCommand call = SippCommand.builder(SippScenario.builtIn("uac")).target("127.0.0.1", uasPort)
                    .localPort(freeUdpPort()).rate(20).callLimit(40).maxCalls(40).timeout(Duration.ofSeconds(60))
                    .traceResponseTimes(10).files(run, "uac").build();
            try (SippProcess uac = SippProcess.start(call, run, "uac")) {
                assertTrue(uac.awaitExit(END), "the uac did not end");
                assertEquals(0, uac.exitCode(), uac.exitExplanation());
                assertEquals("exit status 0: all calls succeeded", uac.exitExplanation());

                SippStatistics stats = uac.statistics();
                assertEquals(0, stats.skippedLines());
                SipLoadFigures total = stats.total();
                assertEquals(40, total.outgoingCalls());
                assertEquals(40, total.callsCreated());
                assertEquals(40, total.successfulCalls());
                assertEquals(0, total.failedCalls());
                assertEquals(Map.of(), total.failedByReason());
                assertTrue(total.seconds() > 1, "40 calls at 20/s take about 2 s: " + total.seconds());
                SipResponseTime rt = total.responseTimesMs().get("1");
                assertEquals("trace_rtt", rt.source(), total.toString());
                assertEquals(40, rt.count(), "one INVITE-to-200 sample per call, all inside the run's periods");

                List<SipSecond> rows = stats.seconds();
                assertEquals(40, rows.stream().mapToLong(SipSecond::successfulCalls).sum());
                assertEquals(40, rows.stream().mapToLong(SipSecond::callsCreated).sum());
                for (int i = 1; i < rows.size(); i++) {
                    assertEquals(rows.get(i - 1).endEpochMicros(), rows.get(i).startEpochMicros(), "periods follow each other");
                }

                // a window that leaves out the first and the last period counts exactly the periods inside it
                Instant from = Instant.ofEpochSecond(0, rows.get(0).endEpochMicros() * 1000 + 1000);
                Instant to = Instant.ofEpochSecond(0, rows.get(rows.size() - 1).startEpochMicros() * 1000);
                SipLoadFigures window = stats.figures(from, to);
                List<SipSecond> inside = rows.stream().filter(r -> r.inside(from, to)).toList();
                assertEquals(inside.size(), window.periods());
                assertEquals(inside.stream().mapToLong(SipSecond::successfulCalls).sum(), window.successfulCalls());
                assertEquals(inside.stream().mapToLong(SipSecond::callsCreated).sum(), window.callsCreated());
            }
            // the uas ends by itself after its 40th call (its scenario holds each call a few seconds after the BYE)
            assertTrue(uas.awaitExit(END), "the uas did not end");
            assertEquals(0, uas.exitCode(), uas.exitExplanation());
            SipLoadFigures answered = uas.statistics().total();
            assertEquals(40, answered.incomingCalls());
            assertEquals(40, answered.successfulCalls());
        }
    }

    @Test
    void callsToAPortWhereNothingListensFailAndSaySo() throws Exception {
        SippCommand call = SippCommand.builder(SippScenario.builtIn("uac")).target("127.0.0.1", freeUdpPort())
                .localPort(freeUdpPort()).rate(10).maxCalls(5).timeout(Duration.ofSeconds(30))
                .recvTimeout(Duration.ofSeconds(1)).files(run, "uac").build();
        try (SippProcess uac = SippProcess.start(call, run, "uac")) {
            assertTrue(uac.awaitExit(END), "the uac did not end");
            assertEquals(1, uac.exitCode(), uac.exitExplanation());
            assertTrue(uac.exitExplanation().startsWith("exit status 1: at least one call failed"), uac.exitExplanation());
            SipLoadFigures f = uac.statistics().total();
            assertEquals(5, f.callsCreated());
            assertEquals(0, f.successfulCalls());
            assertEquals(5, f.failedCalls());
            assertEquals(Map.of("TimeoutOnRecv", 5L), f.failedByReason());
            assertTrue(f.retransmissions() > 0, "UDP INVITEs are retransmitted before the receive timeout");
        }
    }

    @Test
    void stopEndsARunningInstanceAndASecondOnItsPortIsExplained() throws Exception {
        int port = freeUdpPort();
        try (SippProcess first = SippProcess.start(uas(port, 1000).build(), run, "uas")) {
            first.awaitStarted(START);
            SippCommand clash = uas(port, 1).files(run, "clash").build();
            SippProcess second = SippProcess.start(clash, run, "clash");
            IOException e = assertThrows(IOException.class, () -> second.awaitStarted(START));
            assertEquals(254, second.exitCode(), e.getMessage());
            assertTrue(e.getMessage().contains("could not bind") && e.getMessage().contains("Address already in use"), e.getMessage());

            assertTrue(first.alive());
            int status = first.stop(Duration.ofSeconds(15));
            assertFalse(first.alive());
            assertEquals(0, status, first.exitExplanation());
            SippStatistics stats = first.statistics();
            assertFalse(stats.seconds().isEmpty());
            assertEquals(0, stats.total().callsCreated());
        }
    }

    @Test
    void stopEndsAnInstanceWithOpenCallsAndItsLastRowIsWritten() throws Exception {
        int uasPort = freeUdpPort();
        try (SippProcess uas = SippProcess.start(uas(uasPort, 1000).build(), run, "uas")) {
            uas.awaitStarted(START);
            SippCommand call = SippCommand.builder(SippScenario.builtIn("uac")).target("127.0.0.1", uasPort)
                    .localPort(freeUdpPort()).rate(20).maxCalls(20).timeout(Duration.ofSeconds(60)).files(run, "uac").build();
            long placed;
            try (SippProcess uac = SippProcess.start(call, run, "uac")) {
                assertTrue(uac.awaitExit(END), "the uac did not end");
                placed = uac.statistics().total().successfulCalls();
            }
            // the uas holds each answered call a few seconds after its BYE: SIGUSR1 alone would wait for them, so a
            // short grace usually ends it by SIGTERM; either way SIPp exits by itself and writes its last row
            int status = uas.stop(Duration.ofMillis(500));
            assertFalse(uas.alive());
            assertTrue(status == 0 || status == 1, uas.exitExplanation());
            assertEquals(placed, uas.statistics().total().incomingCalls(), "every call the uac completed reached the uas");
        }
    }
}
