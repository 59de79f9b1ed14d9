package perflab.history.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import perflab.core.result.Json;
import perflab.history.HistoryImport;
import perflab.history.HistoryRecorder;
import perflab.history.RecordedRun;
import perflab.history.RunReading;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HistoryStoreTest {
    @TempDir
    Path tmp;

    /** A copy of the test run {@code name} in {@code dir}, with its throughput and start set. */
    static Path run(Path dir, String name, double throughput, String startedAt) throws IOException {
        Files.createDirectories(dir);
        ObjectNode manifest = (ObjectNode) read(name, "run.json");
        manifest.put("startedAt", startedAt);
        ObjectNode summary = (ObjectNode) read(name, "summary.json");
        summary.put("throughput", throughput);
        Json.write(dir.resolve("run.json"), manifest);
        Json.write(dir.resolve("summary.json"), summary);
        return dir;
    }

    static com.fasterxml.jackson.databind.JsonNode read(String name, String file) throws IOException {
        try (InputStream in = HistoryStoreTest.class.getResourceAsStream("/runs/" + name + "/" + file)) {
            return Json.MAPPER.readTree(in);
        }
    }

    @Test
    void recordsRunsAndListsThemOldestFirst() throws Exception {
        Path history = tmp.resolve("deep/dir/history.sqlite");
        assertNull(HistoryRecorder.record(history, run(tmp.resolve("b"), "trade-postgresql", 240, "2026-11-02T10:00:00Z")).warning());
        assertNull(HistoryRecorder.record(history, run(tmp.resolve("a"), "soap-echo", 30000, "2026-11-01T10:00:00Z")).warning());
        assertNull(HistoryRecorder.record(history, run(tmp.resolve("c"), "voicemail", 300, "2026-11-03T10:00:00Z")).warning());
        try (HistoryStore store = HistoryStore.open(history, Duration.ofSeconds(1))) {
            assertEquals(3, store.count());
            List<StoredRun> all = store.runs(RunFilter.ALL);
            assertEquals(List.of("soap-echo", "trade", "voicemail"), all.stream().map(StoredRun::workload).toList());
            assertEquals(30000, all.get(0).figures().get("throughput"));
            assertEquals(RecordedRun.COMPLETE, all.get(0).status());
            assertTrue(all.get(1).configuration().startsWith("trade "), all.get(1).configuration());
            List<StoredRun> trade = store.runs(new RunFilter("trade", null, null, null, null, null, null, null, null, 0));
            assertEquals(1, trade.size());
            List<StoredRun> since = store.runs(new RunFilter(null, null, null, null, null, null, "2026-11-02", "2026-11-02",
                    null, 0));
            assertEquals(List.of("trade"), since.stream().map(StoredRun::workload).toList());
            List<StoredRun> newest = store.runs(new RunFilter(null, null, null, null, null, null, null, null, null, 2));
            assertEquals(List.of("trade", "voicemail"), newest.stream().map(StoredRun::workload).toList());
        }
        // a user's own tools read it: the documented view pivots the common figures
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + history);
             Statement s = c.createStatement();
             var rs = s.executeQuery("SELECT workload, throughput, p99 FROM run_figures ORDER BY started_at")) {
            assertTrue(rs.next());
            assertEquals("soap-echo", rs.getString(1));
            assertEquals(30000, rs.getDouble(2));
            assertTrue(rs.getDouble(3) > 0);
        }
    }

    @Test
    void aSeriesIsOneConfigurationsRunsInOrder() throws Exception {
        Path history = tmp.resolve("h.sqlite");
        double[] values = {100, 101, 99, 80};
        for (int i = 0; i < values.length; i++) {
            HistoryRecorder.record(history, run(tmp.resolve("r" + i), "soap-echo", values[i], "2026-11-0" + (i + 1) + "T00:00:00Z")).warning();
        }
        HistoryRecorder.record(history, run(tmp.resolve("other"), "trade-postgresql", 5, "2026-11-02T12:00:00Z")).warning();
        try (HistoryStore store = HistoryStore.open(history, Duration.ofSeconds(1))) {
            String key = RunReading.read(tmp.resolve("r0")).configKey();
            List<SeriesPoint> series = store.series(key, "", "throughput", true);
            assertEquals(List.of(100.0, 101.0, 99.0, 80.0), series.stream().map(SeriesPoint::value).toList());
            assertEquals(List.of(key), store.configKeysStartingWith(key.substring(0, 6)));
            assertEquals(key, store.configKeyOf(series.get(0).runId()));
        }
    }

    @Test
    void recordingARunTwiceKeepsOne() throws Exception {
        Path history = tmp.resolve("h.sqlite");
        Path dir = run(tmp.resolve("r"), "soap-echo", 100, "2026-11-01T00:00:00Z");
        try (HistoryStore store = HistoryStore.open(history, Duration.ofSeconds(1))) {
            HistoryStore.Recorded first = store.record(RunReading.read(dir));
            HistoryStore.Recorded again = store.record(RunReading.read(dir));
            assertTrue(first.added());
            assertFalse(again.added());
            assertEquals(first.id(), again.id());
            assertEquals(1, store.count());
        }
    }

    @Test
    void aRunThatMeasuredNothingIsRecordedAsFailed() throws Exception {
        Path dir = run(tmp.resolve("r"), "soap-echo", 100, "2026-11-01T00:00:00Z");
        Files.delete(dir.resolve("summary.json"));
        RecordedRun failed = RunReading.read(dir);
        assertEquals(RecordedRun.FAILED, failed.status());
        assertTrue(failed.figures().isEmpty());
        Files.writeString(dir.resolve("summary.json"), "{\"throughput\": 12"); // cut short by a crash
        assertEquals(RecordedRun.FAILED, RunReading.read(dir).status());
    }

    @Test
    void aBrokenOrLockedHistoryIsOneWarningAndTheRunKeepsGoing() throws Exception {
        Path dir = run(tmp.resolve("r"), "soap-echo", 100, "2026-11-01T00:00:00Z");
        Path broken = tmp.resolve("broken.sqlite");
        Files.writeString(broken, "this is not a database, and it is longer than SQLite's header of 100 bytes, "
                + "so that SQLite reads its header and refuses it rather than taking it for an empty file......");
        String warning = HistoryRecorder.record(broken, dir).warning();
        assertNotNull(warning);
        assertTrue(warning.startsWith("perflab: history: the run was not recorded in " + broken), warning);
        assertFalse(warning.contains("\n"), warning);
        assertTrue(Files.readString(broken).startsWith("this is not a database"), "a foreign file is left as it was");

        Path history = tmp.resolve("locked.sqlite");
        assertNull(HistoryRecorder.record(history, run(tmp.resolve("first"), "soap-echo", 1, "2026-10-01T00:00:00Z")).warning());
        try (Connection other = DriverManager.getConnection("jdbc:sqlite:" + history);
             Statement s = other.createStatement()) {
            s.execute("BEGIN EXCLUSIVE");
            long start = System.nanoTime();
            String locked = HistoryRecorder.record(history, dir).warning();
            double seconds = (System.nanoTime() - start) / 1e9;
            assertNotNull(locked);
            assertTrue(locked.contains("locked") || locked.contains("BUSY"), locked);
            // the busy wait is 2 s; a wide margin for a loaded machine, but not a hang
            assertTrue(seconds < 30, "a locked history held the run " + seconds + " s");
            s.execute("ROLLBACK");
        }
        assertNull(HistoryRecorder.record(history, dir).warning(), "once the lock is gone, the run records");
    }

    @Test
    void aHistoryOfANewerSchemaIsRefused() throws Exception {
        Path history = tmp.resolve("h.sqlite");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + history); Statement s = c.createStatement()) {
            s.execute("PRAGMA user_version = 99");
        }
        SQLException e = assertThrows(SQLException.class, () -> HistoryStore.open(history, Duration.ofSeconds(1)));
        assertTrue(e.getMessage().contains("newer perflab"), e.getMessage());
    }

    @Test
    void importFindsRunsBelowADirectoryAndTheirExperiment() throws Exception {
        Path results = tmp.resolve("results");
        run(results.resolve("20261101-soap"), "soap-echo", 100, "2026-11-01T00:00:00Z");
        Path experiment = results.resolve("20261102-tune-heap");
        Files.createDirectories(experiment);
        Files.writeString(experiment.resolve("experiment.json"), "{}");
        run(experiment.resolve("01-heap-1g/rep-1"), "soap-echo", 101, "2026-11-02T00:00:00Z");
        run(experiment.resolve("01-heap-1g/rep-2"), "soap-echo", 102, "2026-11-02T00:01:00Z");
        Files.createDirectories(results.resolve("junk"));
        Files.writeString(results.resolve("junk/run.json"), "{not json");
        try (HistoryStore store = HistoryStore.open(tmp.resolve("h.sqlite"), Duration.ofSeconds(1))) {
            HistoryImport.Outcome o = HistoryImport.into(store, List.of(results), "v1");
            assertEquals(3, o.added());
            assertEquals(1, o.problems().size(), o.problems().toString());
            assertTrue(o.problems().get(0).contains("junk"), o.problems().toString());
            List<StoredRun> runs = store.runs(RunFilter.ALL);
            assertEquals(List.of("v1", "v1", "v1"), runs.stream().map(StoredRun::label).toList());
            assertNull(runs.get(0).experiment());
            assertEquals(experiment.toAbsolutePath().normalize().toString(), runs.get(1).experiment());
            assertEquals(0, HistoryImport.into(store, List.of(results), null).added(), "imported once only");
        }
    }
}
