package perflab.experiment.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import perflab.core.config.RunConfig;
import perflab.core.result.RunSummary;
import perflab.core.workload.Companion;
import perflab.core.workload.ServerSide;
import perflab.core.workload.Workload;
import perflab.monitor.RunMonitor;
import perflab.testsupport.Poll;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A companion that declares itself the run's database, sampled with the processes under it: the declaration reaches
 * the launch plan, run.json ({@code sampled}, {@code role}, {@code settings}), the monitor (one tree) and summary.json's
 * {@code database}. No workload is named: a stand-in declares the companion as trade's does.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DatabaseCompanionTest {
    @TempDir
    Path home;

    private static Map<String, String> durability() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("fsync", "off");
        settings.put("max_connections", "120");
        return settings;
    }

    /** A workload whose server side is its SUT and the given companions. */
    private static Workload workload(List<Companion> companions) {
        return new StubWorkload("db-test", "a SUT with a database") {
            @Override
            public ServerSide serverSide(Map<String, String> settings) {
                return new ServerSide(companions, Map.of("db-url", "jdbc:postgresql://127.0.0.1:{db.port}/t"));
            }
        };
    }

    private static Companion database(String name) {
        return Companion.program(name, List.of("/bin/true"), Companion.Start.BEFORE_SUT, "PERFLAB-READY")
                .sampledAsTree().as(Companion.Role.DATABASE).withSettings(durability());
    }

    @Test
    void theLaunchPlanCarriesSamplingRoleAndSettingsAndAllowsOneDatabase() throws Exception {
        Path stack = Files.createDirectories(home.resolve("workloads/x/stack-a/target/stack"));
        Files.writeString(stack.resolve("a.jar"), "");
        RunConfig.Sut sut = new RunConfig.Sut(List.of(), null, null, null, null, 0, Map.of());
        ServerLaunch launch = ServerLaunch.plan(workload(List.of(database("db"))), "a", sut, home, home.resolve("run"), false);
        ServerLaunch.Step db = launch.steps().get(0);
        assertEquals("db", db.name());
        assertEquals(Companion.Sampling.TREE, db.sampling());
        assertEquals(Companion.Role.DATABASE, db.role());
        assertEquals(durability(), db.settings());
        assertEquals(Companion.Sampling.PROCESS, launch.sut().sampling());
        assertNull(launch.sut().role());

        IllegalArgumentException two = assertThrows(IllegalArgumentException.class, () -> ServerLaunch.plan(
                workload(List.of(database("db"), database("other"))), "a", sut, home, home.resolve("run"), false));
        assertEquals("companions db and other both play the database: a run has one", two.getMessage());
    }

    @Test
    void aTreeCompanionIsRecordedInRunJsonAndSampledWithItsChildren() throws Exception {
        Path runDir = Files.createDirectories(home.resolve("run"));
        // a stand-in server: two workers under it, ready once they are started, gone with them when stdin closes
        ServerLaunch.Step db = new ServerLaunch.Step("db", List.of("bash", "-c",
                "sleep 120 & sleep 120 & echo PERFLAB-READY port=5432; read x; kill $(jobs -p); wait"),
                "PERFLAB-READY", false, Companion.Sampling.TREE, Companion.Role.DATABASE, durability());
        try (ServerProcesses server = ServerProcesses.start(new ServerLaunch(List.of(db)), runDir, Duration.ofSeconds(20), p -> { })) {
            assertEquals(java.util.Set.of("db"), server.trees());
            assertEquals("db", server.playing(Companion.Role.DATABASE));

            RunManifest manifest = new RunManifest(runDir);
            manifest.started(server);
            manifest.write();
            JsonNode entry = new ObjectMapper().readTree(runDir.resolve("run.json").toFile()).get("processes").get("db");
            assertEquals("tree", entry.get("sampled").asText());
            assertEquals("database", entry.get("role").asText());
            assertEquals("off", entry.get("settings").get("fsync").asText());
            assertEquals(List.of("fsync", "max_connections"), iterate(entry.get("settings")), "in the order declared");
            assertEquals(5432, entry.get("ports").get("port").asInt());

            // bash forks its workers before it prints, but give it time
            Poll.until("the database shell's two workers", Duration.ofSeconds(10),
                    () -> ProcessHandle.of(server.pids().get("db")).orElseThrow().children().count(), n -> n >= 2);
            RunMonitor monitor = new RunMonitor(server.pids(), server.trees(), null);
            long from = System.currentTimeMillis();
            monitor.sample();
            Thread.sleep(50);
            monitor.sample();
            RunMonitor.SutWindow w = monitor.window(from, System.currentTimeMillis()).processes().get("db");
            assertEquals(3, w.processes(), "the shell and its two workers: " + w);
        }
    }

    @Test
    void summaryJsonsDatabaseCountsItsCpuWithTheSutsPerRequest() {
        RunSummary.Sut sut = new RunSummary.Sut(1L, 2.0, 1.5, 0.5, 20.0, 10.0, 2000.0, 500.0, 300.0, 310.0, 40, false,
                null, 0.1, 1.0, 1);
        RunSummary.Sut db = new RunSummary.Sut(2L, 1.0, 0.6, 0.4, 10.0, 5.0, 1000.0, 1000.0, 250.0, 260.0, 14, false,
                null, null, null, 14);
        Map<String, RunSummary.Sut> processes = Map.of("sut", sut, "postgres", db);
        RunSummary.Database d = RunSummarizer.database("postgres", sut, processes, 1000);
        assertEquals("postgres", d.process());
        assertEquals(2L, d.pid());
        assertEquals(10.0, d.cpuPercent());
        assertEquals(1000.0, d.cpuMicrosPerRequest());
        assertEquals(250.0, d.rssMb());
        assertEquals(14, d.processes());
        assertEquals(3000.0, d.sutAndDatabaseCpuMicrosPerRequest(), "(2 s + 1 s) / 1000 requests");
        assertEquals(333.333, d.requestsPerSutAndDatabaseCpuSecond());

        assertNull(RunSummarizer.database(null, sut, processes, 1000), "no process plays the database");
        RunSummary.Database noSut = RunSummarizer.database("postgres", null, Map.of("postgres", db), 1000);
        assertNull(noSut.sutAndDatabaseCpuMicrosPerRequest());
        assertNull(RunSummarizer.database("postgres", sut, processes, 0).sutAndDatabaseCpuMicrosPerRequest());
    }

    private static List<String> iterate(JsonNode object) {
        List<String> names = new java.util.ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
