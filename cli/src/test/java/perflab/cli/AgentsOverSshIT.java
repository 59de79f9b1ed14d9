package perflab.cli;

import perflab.testsupport.PerflabProcess;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import perflab.testsupport.Poll;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --agents ssh:...} against real hosts made on this machine ({@link NamespaceHosts}): the SUT in one network
 * namespace, two agents deployed over real OpenSSH servers in two others, the controller in the root namespace.
 * Merged counts are the agents' sums, an open rate split over them lands within 1 %, a SIGKILLed agent voids the
 * run and leaves nothing behind, and a wrong host key or a missing key is one line. Root only: elsewhere it is
 * skipped, and says so in the log.
 */
class AgentsOverSshIT {
    private static final String HELLO = PerflabProcess.testWorkload("hello");

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int SUT = 0;
    private static final int AGENT_1 = 1;
    private static final int AGENT_2 = 2;

    @TempDir
    static Path work;
    private static NamespaceHosts hosts;
    private static PerflabProcess server;
    private static String url;

    @BeforeAll
    static void hosts() throws Exception {
        String why = NamespaceHosts.unavailable();
        if (why != null) {
            System.out.println("SKIPPED AgentsOverSshIT: " + why);
        }
        Assumptions.assumeTrue(why == null, why);
        hosts = new NamespaceHosts(work);
        hosts.create(4); // the SUT, two agents, and one host whose key nobody knows
        hosts.startSsh(AGENT_1, true);
        hosts.startSsh(AGENT_2, true);
        hosts.startSsh(3, false);
        Path serveDir = work.resolve("serve");
        Files.createDirectories(serveDir);
        server = PerflabProcess.startIn(hosts.in(SUT, List.of()), serveDir, HELLO, "serve", "hello", "--port", "0",
                "--listen", hosts.address(SUT), "--out", serveDir.resolve("logs").toString());
        url = server.awaitLine(Pattern.compile("at (http://198\\.18\\.\\d+\\.\\d+:\\d+/\\S+)"));
    }

    @AfterAll
    static void tearDown() {
        if (server != null) {
            server.close();
        }
        if (hosts != null) {
            hosts.close();
        }
    }

    private static String agents(int... which) {
        List<String> each = new ArrayList<>();
        for (int i : which) {
            each.add("root@" + hosts.address(i) + ":" + NamespaceHosts.SSH_PORT);
        }
        return "ssh:" + String.join(",", each);
    }

    private static PerflabProcess drive(Path dir, String agents, String... load) throws Exception {
        Files.createDirectories(dir);
        List<String> args = new ArrayList<>(List.of("drive", "hello", "--target", url, "--agents", agents,
                "--agents-key", hosts.clientKey.toString(), "--agents-known-hosts", hosts.knownHosts.toString(),
                "--out", dir.resolve("r").toString()));
        args.addAll(List.of(load));
        return PerflabProcess.startWith(dir, HELLO, args.toArray(String[]::new));
    }

    @Test
    void anOpenRateOverTwoHostsLandsWithinOnePercentAndTheMergeIsTheAgentsSum() throws Exception {
        Path dir = work.resolve("open");
        // the hosts log in as root and share this file system: a build no run has used for 10 days, and a fresh one
        Path cache = Path.of("/root", ".cache/perflab-agent");
        Path unused = cache.resolve("00-unused-build-planted-by-a-test");
        Path fresh = cache.resolve("00-fresh-build-planted-by-a-test");
        Files.createDirectories(unused.resolve("lib"));
        Files.writeString(unused.resolve("lib/a.jar"), "");
        Files.createDirectories(fresh);
        Files.writeString(fresh.resolve(".complete"), "");
        java.nio.file.attribute.FileTime tenDaysAgo = java.nio.file.attribute.FileTime.from(
                java.time.Instant.now().minus(Duration.ofDays(10)));
        for (Path old : List.of(unused.resolve("lib/a.jar"), unused.resolve("lib"), unused)) {
            Files.setLastModifiedTime(old, tenDaysAgo);
        }
        try {
            try (PerflabProcess p = drive(dir, agents(AGENT_1, AGENT_2), "--rate", "400", "--clients", "8", "--warmup",
                    "2s", "--duration", "6s")) {
                assertEquals(0, p.await(Duration.ofSeconds(180)), p.err() + p.out());
            }
            assertFalse(Files.exists(unused), "a build unused for a week is removed from the hosts");
            assertTrue(Files.exists(fresh), "one used lately stays");
        } finally {
            NamespaceHosts.run("rm", "-rf", "--", unused.toString(), fresh.toString());
        }
        JsonNode s = JSON.readTree(dir.resolve("r/summary.json").toFile());
        assertTrue(s.get("complete").asBoolean(), s.get("endReason").asText());
        double throughput = s.get("throughput").asDouble();
        assertTrue(Math.abs(throughput - 400) <= 4, "400 req/s over two hosts came out at " + throughput);
        long sum = 0;
        for (JsonNode a : s.get("agents")) {
            sum += a.get("requests").asLong();
            assertTrue(Math.abs(a.get("throughput").asDouble() - 200) <= 4, a.toString());
        }
        assertEquals(s.get("requests").asLong(), sum);
        assertEquals(List.of(hosts.address(AGENT_1) + "_2222", hosts.address(AGENT_2) + "_2222"),
                iterable(s.get("agents").fieldNames()));
        assertTrue(NamespaceHosts.pidsWith("perflab.agents.AgentMain").isEmpty(), "no agent left on any host");
    }

    @Test
    void aKilledAgentOnAHostVoidsTheRunAndNothingIsLeftRunning() throws Exception {
        Path dir = work.resolve("killed");
        try (PerflabProcess p = drive(dir, agents(AGENT_1, AGENT_2), "--clients", "4", "--warmup", "1s", "--duration", "60s")) {
            p.awaitLine(Pattern.compile("(\\[measure\\]\\s+2/)"));
            List<Long> agent2 = NamespaceHosts.pidsWith("--name " + hosts.address(AGENT_2) + "_2222");
            assertEquals(1, agent2.size(), "agent 2's JVM: " + agent2);
            NamespaceHosts.run("kill", "-9", Long.toString(agent2.get(0)));
            assertNotEquals(0, p.await(Duration.ofSeconds(60)));
            assertTrue(p.out().contains("the run is void: agent " + hosts.address(AGENT_2) + "_2222 lost"), p.out());
        }
        JsonNode s = JSON.readTree(dir.resolve("r/summary.json").toFile());
        assertFalse(s.get("complete").asBoolean());
        assertTrue(s.get("endReason").asText().startsWith("void: "), s.get("endReason").asText());
        Poll.until("no agent left on any host", Duration.ofSeconds(20),
                () -> NamespaceHosts.pidsWith("perflab.agents.AgentMain"), List::isEmpty);
    }

    @Test
    void aHostWhoseKeyIsUnknownIsRefusedInOneLine() throws Exception {
        Path dir = work.resolve("hostkey");
        try (PerflabProcess p = drive(dir, agents(AGENT_1, 3), "--clients", "2", "--duration", "2s")) {
            assertNotEquals(0, p.await(Duration.ofSeconds(120)));
            String err = p.err().strip();
            assertEquals(1, err.lines().count(), err);
            assertTrue(err.contains("agent root@" + hosts.address(3) + ":2222 could not start: its host key is not in "), err);
            assertFalse(err.contains("Exception"), err);
        }
        assertTrue(NamespaceHosts.pidsWith("perflab.agents.AgentMain").isEmpty(), "the agent started before the failure is gone");
    }

    @Test
    void aKeyTheHostsDoNotKnowAndAMissingKeyAreRefusedInOneLine() throws Exception {
        Path stranger = work.resolve("stranger");
        NamespaceHosts.run("ssh-keygen", "-q", "-t", "ecdsa", "-N", "", "-f", stranger.toString());
        Path dir = work.resolve("badkey");
        Files.createDirectories(dir);
        try (PerflabProcess p = PerflabProcess.startWith(dir, HELLO, "drive", "hello", "--target", url, "--agents",
                agents(AGENT_1), "--agents-key", stranger.toString(), "--agents-known-hosts", hosts.knownHosts.toString(),
                "--clients", "1", "--duration", "2s", "--out", dir.resolve("r").toString())) {
            assertNotEquals(0, p.await(Duration.ofSeconds(120)));
            String err = p.err().strip();
            assertEquals(1, err.lines().count(), err);
            assertTrue(err.contains("root refused every key offered (" + stranger + ")"), err);
        }
        try (PerflabProcess p = PerflabProcess.startWith(dir, HELLO, "drive", "hello", "--target", url, "--agents",
                agents(AGENT_1), "--agents-key", work.resolve("nosuchkey").toString(), "--agents-known-hosts",
                hosts.knownHosts.toString(), "--clients", "1", "--duration", "2s")) {
            assertEquals(2, p.await(Duration.ofSeconds(60)));
            String err = p.err().strip();
            assertEquals(1, err.lines().count(), err);
            assertTrue(err.contains("--agents-key " + work.resolve("nosuchkey") + ": no such key"), err);
        }
    }

    private static List<String> iterable(java.util.Iterator<String> it) {
        List<String> all = new ArrayList<>();
        it.forEachRemaining(all::add);
        return all;
    }
}
