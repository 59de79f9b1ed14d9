package perflab.cli;

import perflab.testsupport.PerflabProcess;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A SUT run as several instances (`--instances 2`) behind a real proxy: the example workload (test-workloads/notes)
 * puts haproxy (CI installs it) in front of two notes JVMs that share one store. Each instance is started, monitored
 * and logs its GC on its own; the SUT's figures are their sums; the driver sends to haproxy, which spreads the
 * users over both instances and keeps each user on the one holding its session.
 */
class InstancesIT {
    private static final String NOTES = PerflabProcess.testWorkload("notes");

    @TempDir
    Path work;

    @Test
    void twoInstancesBehindHaproxyAreMonitoredEachAndSummed() throws Exception {
        Path out = work.resolve("notes");
        try (PerflabProcess p = PerflabProcess.startWith(work, NOTES, "run", "notes", "--instances", "2", "--clients",
                "8", "--warmup", "2s", "--duration", "5s", "--heap", "96m", "--out", out.toString())) {
            assertEquals(0, p.await(Duration.ofSeconds(120)), p.err() + p.out());
            assertTrue(p.out().contains("perflab: SUT instance sut-0 pid") && p.out().contains("perflab: SUT instance sut-1 pid"),
                    p.out());
            assertTrue(p.out().contains("perflab: companion proxy pid"), p.out());
        }
        JsonNode summary = new ObjectMapper().readTree(out.resolve("summary.json").toFile());
        // every user logged in and kept its session: haproxy's cookie held it to one instance
        assertEquals(0, summary.get("errors").get("total").asLong(), summary.toString());
        JsonNode processes = summary.get("processes");
        double cpu0 = processes.get("sut-0").get("cpuSeconds").asDouble();
        double cpu1 = processes.get("sut-1").get("cpuSeconds").asDouble();
        assertEquals(cpu0 + cpu1, summary.get("sut").get("cpuSeconds").asDouble(), 0.002, processes.toString());
        assertEquals(2, summary.get("sut").get("processes").asInt(), summary.get("sut").toString());
        // 8 users over 2 instances round robin: each served a share (an idle JVM spends a few ms a second)
        assertTrue(cpu0 > 0.1 && cpu1 > 0.1, "both instances served: " + processes);
        assertTrue(processes.get("proxy").get("cpuSeconds").asDouble() > 0, processes.toString());
        assertTrue(processes.has("store"), processes.toString());
        assertTrue(Files.size(out.resolve("sut-0-gc.log")) > 0 && Files.size(out.resolve("sut-1-gc.log")) > 0);
        assertTrue(Files.exists(out.resolve("haproxy-notes.cfg")), "the proxy's configuration stays with the run");

        JsonNode run = new ObjectMapper().readTree(out.resolve("run.json").toFile());
        int proxyPort = run.get("processes").get("proxy").get("ports").get("port").asInt();
        assertTrue(run.get("target").asText().startsWith("http://127.0.0.1:" + proxyPort + "/"), run.get("target").toString());
        int port1 = run.get("processes").get("sut-1").get("ports").get("port").asInt();
        assertTrue(run.get("processes").get("proxy").get("command").toString().contains("\"" + port1 + "\""),
                "haproxy is told where each instance listens: " + run.get("processes"));
        String rows = Files.readString(out.resolve("processes.csv"));
        assertTrue(rows.contains(",sut-0,") && rows.contains(",sut-1,") && rows.contains(",proxy,"), rows);
    }

    @Test
    void aWorkloadThatRunsAsOneInstanceRefusesMoreInOneLine() throws Exception {
        try (PerflabProcess p = PerflabProcess.startWith(work, NOTES + ":" + PerflabProcess.testWorkload("hello"), "run", "hello", "--instances", "2")) {
            assertEquals(2, p.await(Duration.ofSeconds(60)));
            assertTrue(p.err().startsWith("perflab: --instances 2: hello runs as one SUT instance"), p.err());
            assertEquals(1, p.err().lines().count(), p.err());
        }
    }
}
