package perflab.agents;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import perflab.driver.ConnectionPolicy;
import perflab.driver.DriverResult;
import perflab.driver.Interval;
import perflab.driver.IntervalListener;
import perflab.driver.LoadSpec;
import perflab.driver.Phase;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The controller with real agents (threads of this JVM on real gRPC streams) against a real HTTP server on loopback. */
class AgentsDriveTest {
    private StallServer server;

    @BeforeEach
    void start() throws Exception {
        server = new StallServer();
    }

    @AfterEach
    void stop() throws Exception {
        server.close();
    }

    private LoadSpec open(int clients, double rate, Duration window) {
        return new LoadSpec(server.uri(), clients, rate, LoadSpec.Schedule.CONSTANT, window, 0, Duration.ofMillis(500), 0,
                Duration.ZERO, ConnectionPolicy.PERSISTENT, Duration.ofSeconds(10), 0.01, 7, 0, 0);
    }

    private static AgentsDrive drive(LoadSpec spec, ThreadDeployer deployer) {
        return new AgentsDrive(spec, StallWorkload.NAME, "get", Map.of(), deployer, 0, null);
    }

    /**
     * Two agents at 500 req/s each, and the server stalls for a second early in the window: the stall is in the
     * merged latency (each agent measures from its intended send times), not in service time or send lag, as on one
     * machine; and the merged window holds the rate's requests.
     */
    @Test
    void aServerStallIsInTheMergedLatencyAsOnOneMachine() throws Exception {
        ThreadDeployer deployer = new ThreadDeployer(2, false);
        java.io.ByteArrayOutputStream console = new java.io.ByteArrayOutputStream();
        AgentsDrive drive = new AgentsDrive(open(32, 1000, Duration.ofSeconds(3)), StallWorkload.NAME, "get", Map.of(),
                deployer, 0, new java.io.PrintStream(console, true, java.nio.charset.StandardCharsets.UTF_8));
        drive.liveEvery = 1;
        AtomicBoolean stalled = new AtomicBoolean();
        List<Interval> merged = new ArrayList<>();
        DriverResult r = drive.run(i -> {
            merged.add(i);
            if (i.phase() == Phase.MEASURE && stalled.compareAndSet(false, true)) {
                server.stallFor(1000);
            }
        });
        assertTrue(r.complete(), r.endReason());
        double latencyP99 = r.latency().getValueAtPercentile(99) / 1000.0;
        assertTrue(latencyP99 >= 200, "merged latency p99 " + latencyP99 + " ms");
        long halfStall = 500_000;
        long longService = r.serviceTime().getCountBetweenValues(halfStall, Math.max(halfStall, r.serviceTime().getMaxValue()));
        assertTrue(longService <= 32, longService + " requests took 500 ms or more after they were sent");
        long longLag = r.lag().getCountBetweenValues(halfStall, Math.max(halfStall, r.lag().getMaxValue()));
        assertTrue(longLag < 100, longLag + " requests were sent 500 ms or more late");
        assertEquals(0, r.errorCount(), () -> r.errorSamples().toString());
        double rate = r.requests() / r.measuredSeconds();
        assertTrue(Math.abs(rate - 1000) <= 10 + 1000.0 / r.measuredSeconds(), "1000 req/s over two agents: " + rate);
        long series = merged.stream().filter(i -> i.phase() == Phase.MEASURE).mapToLong(i -> i.successes() + i.errorCount()).sum();
        assertEquals(r.requests(), series, "the merged series adds up to the merged total");
        assertEquals(2, drive.agents().size());
        for (AgentsDrive.AgentRun a : drive.agents()) {
            assertNotNull(a.result(), a.name());
            assertTrue(Math.abs(a.result().requests() - r.requests() / 2.0) <= 0.02 * r.requests(), a.name() + " "
                    + a.result().requests() + " of " + r.requests());
        }
        assertEquals(Map.of("thread-1", 0, "thread-2", 0), deployer.exits, "every agent ended with its stream");
        String live = console.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(live.matches("(?s).*perflab: agents: thread-1 [\\d,]+ req/s cpu \\d+%, thread-2 [\\d,]+ req/s cpu \\d+%.*"),
                "each agent's rate and CPU every second here: " + live);
    }

    /** An agent whose latest second was its own limit says so in the live line, by the driver's saturation rule. */
    @Test
    void theLiveLineNamesAnAgentThatCouldNotKeepUp() {
        AgentLink calm = link("host-a", 2);
        calm.lastMeasuredRequests = 5000;
        calm.lastMeasuredSeconds = 1.0;
        calm.lastCpuShare = 0.4;
        calm.lastSaturation = perflab.driver.LoadDriver.saturation(true, 2, 0.4, 1.0, new org.HdrHistogram.Histogram(3));
        AgentLink busy = link("host-b", 2);
        busy.lastMeasuredRequests = 4000;
        busy.lastMeasuredSeconds = 1.0;
        busy.lastCpuShare = 1.9;
        busy.lastSaturation = perflab.driver.LoadDriver.saturation(true, 2, 1.9, 1.0, new org.HdrHistogram.Histogram(3));
        assertEquals("perflab: agents: host-a 5,000 req/s cpu 40%, host-b 4,000 req/s cpu 190% SATURATED (driver CPU was "
                + "95% of the 2 cores available to it (limit 90%))", AgentsDrive.liveLine(List.of(calm, busy)));
    }

    private static AgentLink link(String name, int cpus) {
        AgentLink a = new AgentLink(null);
        a.hello = new perflab.agents.wire.ToController.Hello("token", name, "127.0.0.1", 1, cpus, "17", 0);
        return a;
    }

    @Test
    void anAgentWithAWrongTokenIsRefusedAndTheRunGoesOnWithoutIt() throws Exception {
        ThreadDeployer deployer = new ThreadDeployer(2, true);
        AgentsDrive drive = drive(open(4, 200, Duration.ofSeconds(1)), deployer);
        IntervalListener none = i -> { };
        DriverResult r = drive.run(none);
        assertTrue(r.complete(), r.endReason());
        assertEquals(1, deployer.exits.get("impostor"), "refused: it exits non-zero");
        assertEquals(List.of("thread-1", "thread-2"), drive.agents().stream().map(AgentsDrive.AgentRun::name).toList());
    }

    @Test
    void anAgentThatCannotBuildItsTrafficFailsTheRunInOneLine() {
        ThreadDeployer deployer = new ThreadDeployer(2, false);
        AgentsDrive drive = new AgentsDrive(open(4, 200, Duration.ofSeconds(1)), "no-such-workload", "get", Map.of(),
                deployer, 0, null);
        AgentsFailure f = org.junit.jupiter.api.Assertions.assertThrows(AgentsFailure.class, () -> drive.run(i -> { }));
        assertTrue(f.getMessage().startsWith("agent thread-") && f.getMessage().contains("unknown workload 'no-such-workload'"),
                f.getMessage());
    }
}
