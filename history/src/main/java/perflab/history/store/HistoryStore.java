package perflab.history.store;

import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;
import perflab.history.Figure;
import perflab.history.RecordedRun;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The results history: one SQLite file (docs/history.md). WAL mode with a bounded busy wait, so that two perflab
 * processes recording at once take turns instead of failing; each run goes in as one transaction.
 */
public final class HistoryStore implements AutoCloseable {
    private final Path file;
    private final Connection db;

    private HistoryStore(Path file, Connection db) {
        this.file = file;
        this.db = db;
    }

    /**
     * Opens {@code file}, creating it and its directory when new.
     *
     * @param busyWait how long a statement waits for another process's write lock before failing
     */
    public static HistoryStore open(Path file, Duration busyWait) throws IOException, SQLException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        SQLiteConfig config = new SQLiteConfig();
        config.setBusyTimeout((int) Math.min(Integer.MAX_VALUE, busyWait.toMillis()));
        config.setJournalMode(SQLiteConfig.JournalMode.WAL);
        config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
        config.enforceForeignKeys(true);
        SQLiteDataSource source = new SQLiteDataSource(config);
        source.setUrl("jdbc:sqlite:" + file.toAbsolutePath());
        Connection db = source.getConnection();
        try {
            HistorySchema.ensure(db);
            return new HistoryStore(file, db);
        } catch (SQLException | RuntimeException e) {
            db.close();
            throw e;
        }
    }

    public Path file() {
        return file;
    }

    /** The outcome of recording a run: its id, and whether it was new (false: recorded before, left as it was). */
    public record Recorded(long id, boolean added) {
    }

    /** Records {@code run} with its figures, unless a run of the same directory and start is there already. */
    public Recorded record(RecordedRun run) throws SQLException {
        db.setAutoCommit(false);
        try {
            Long existing = idOf(run.directory(), run.startedAt());
            if (existing != null) {
                db.rollback();
                return new Recorded(existing, false);
            }
            long id;
            try (PreparedStatement insert = db.prepareStatement("""
                    INSERT INTO runs (directory, started_at, ended_at, recorded_at, workload, stack, operation, model,
                      clients, target_rate, duration_s, status, end_reason, label, experiment, perflab_revision, host,
                      cores, jdk, collector, config_key, configuration, config_json)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""")) {
                Object[] values = {run.directory(), run.startedAt(), run.endedAt(), Instant.now().toString(),
                        run.workload(), run.stack(), run.operation(), run.model(), run.clients(), run.targetRate(),
                        run.durationSeconds(), run.status(), run.endReason(), run.label(), run.experiment(),
                        run.perflabRevision(), run.host(), run.cores(), run.jdk(), run.collector(), run.configKey(),
                        run.configuration(), run.configJson()};
                for (int i = 0; i < values.length; i++) {
                    bind(insert, i + 1, values[i]);
                }
                insert.executeUpdate();
            }
            try (PreparedStatement last = db.prepareStatement("SELECT last_insert_rowid()");
                 ResultSet rs = last.executeQuery()) {
                rs.next();
                id = rs.getLong(1);
            }
            try (PreparedStatement insert = db.prepareStatement(
                    "INSERT OR REPLACE INTO figures (run_id, scope, name, value, unit) VALUES (?, ?, ?, ?, ?)")) {
                for (Figure f : run.figures()) {
                    insert.setLong(1, id);
                    insert.setString(2, f.scope());
                    insert.setString(3, f.name());
                    insert.setDouble(4, f.value());
                    insert.setString(5, f.unit());
                    insert.addBatch();
                }
                insert.executeBatch();
            }
            db.commit();
            return new Recorded(id, true);
        } catch (SQLException | RuntimeException e) {
            db.rollback();
            throw e;
        } finally {
            db.setAutoCommit(true);
        }
    }

    private Long idOf(String directory, String startedAt) throws SQLException {
        try (PreparedStatement q = db.prepareStatement("SELECT id FROM runs WHERE directory = ? AND started_at = ?")) {
            q.setString(1, directory);
            q.setString(2, startedAt);
            try (ResultSet rs = q.executeQuery()) {
                return rs.next() ? rs.getLong(1) : null;
            }
        }
    }

    /** How many runs the history holds. */
    public long count() throws SQLException {
        try (PreparedStatement q = db.prepareStatement("SELECT count(*) FROM runs"); ResultSet rs = q.executeQuery()) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }

    /** The runs {@code filter} matches, oldest first, with their figures of the run as a whole. */
    public List<StoredRun> runs(RunFilter filter) throws SQLException {
        StringBuilder where = new StringBuilder(" WHERE 1 = 1");
        List<Object> args = new ArrayList<>();
        equal(where, args, "workload", filter.workload());
        equal(where, args, "stack", filter.stack());
        equal(where, args, "operation", filter.operation());
        equal(where, args, "label", filter.label());
        equal(where, args, "config_key", filter.configKey());
        equal(where, args, "status", filter.status());
        if (filter.matching() != null) {
            where.append(" AND instr(configuration, ?) > 0");
            args.add(filter.matching());
        }
        if (filter.since() != null) {
            where.append(" AND started_at >= ?");
            args.add(filter.since());
        }
        if (filter.until() != null) {
            // a date alone means the whole of that day
            where.append(" AND started_at < ?");
            args.add(filter.until().length() == 10 ? filter.until() + "T99" : filter.until());
        }
        String sql = "SELECT id, directory, started_at, workload, stack, operation, status, label, experiment, config_key, "
                + "configuration FROM runs" + where + " ORDER BY started_at DESC, id DESC"
                + (filter.limit() > 0 ? " LIMIT " + filter.limit() : "");
        List<StoredRun> out = new ArrayList<>();
        try (PreparedStatement q = db.prepareStatement(sql)) {
            for (int i = 0; i < args.size(); i++) {
                bind(q, i + 1, args.get(i));
            }
            try (ResultSet rs = q.executeQuery()) {
                while (rs.next()) {
                    out.add(new StoredRun(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4),
                            rs.getString(5), rs.getString(6), rs.getString(7), rs.getString(8), rs.getString(9),
                            rs.getString(10), rs.getString(11), new LinkedHashMap<>()));
                }
            }
        }
        java.util.Collections.reverse(out);
        figuresOf(out);
        return out;
    }

    /** Every figure of every run in {@code runs}, of all scopes, in the runs' order: one query per thousand runs. */
    public Map<Long, List<Figure>> allFigures(List<StoredRun> runs) throws SQLException {
        Map<Long, List<Figure>> out = new LinkedHashMap<>();
        runs.forEach(r -> out.put(r.id(), new ArrayList<>()));
        forEachRowOf(new ArrayList<>(out.keySet()), "SELECT run_id, scope, name, value, unit FROM figures WHERE run_id IN (%s) "
                + "ORDER BY run_id, scope, name", rs -> out.get(rs.getLong(1)).add(new Figure(rs.getString(2),
                rs.getString(3), rs.getDouble(4), rs.getString(5))));
        return out;
    }

    /** Fills each run's figures of the run as a whole, in one query per thousand runs. */
    private void figuresOf(List<StoredRun> runs) throws SQLException {
        Map<Long, StoredRun> byId = new LinkedHashMap<>();
        runs.forEach(r -> byId.put(r.id(), r));
        forEachRowOf(new ArrayList<>(byId.keySet()), "SELECT run_id, name, value FROM figures WHERE scope = '' AND "
                + "run_id IN (%s)", rs -> byId.get(rs.getLong(1)).figures().put(rs.getString(2), rs.getDouble(3)));
    }

    /** A row of a result set, read. */
    @FunctionalInterface
    private interface RowReader {
        void read(ResultSet rs) throws SQLException;
    }

    /**
     * Runs {@code sql}, whose {@code %s} is an {@code IN} list, for the runs {@code ids} a thousand at a time (SQLite
     * bounds a statement's parameters), and hands each row to {@code reader}.
     */
    private void forEachRowOf(List<Long> ids, String sql, RowReader reader) throws SQLException {
        for (int from = 0; from < ids.size(); from += 1000) {
            List<Long> part = ids.subList(from, Math.min(ids.size(), from + 1000));
            String marks = String.join(", ", java.util.Collections.nCopies(part.size(), "?"));
            try (PreparedStatement q = db.prepareStatement(String.format(java.util.Locale.ROOT, sql, marks))) {
                for (int i = 0; i < part.size(); i++) {
                    q.setLong(i + 1, part.get(i));
                }
                try (ResultSet rs = q.executeQuery()) {
                    while (rs.next()) {
                        reader.read(rs);
                    }
                }
            }
        }
    }

    /**
     * One figure of one configuration's runs, oldest first: the series change points are looked for in.
     *
     * @param completeOnly only runs that completed (an interrupted run's window was cut short)
     */
    public List<SeriesPoint> series(String configKey, String scope, String figure, boolean completeOnly)
            throws SQLException {
        List<SeriesPoint> out = new ArrayList<>();
        try (PreparedStatement q = db.prepareStatement("SELECT r.id, r.started_at, r.label, r.experiment, r.directory, "
                + "f.value FROM runs r JOIN figures f ON f.run_id = r.id AND f.scope = ? AND f.name = ? "
                + "WHERE r.config_key = ?" + (completeOnly ? " AND r.status = 'complete'" : "")
                + " ORDER BY r.started_at, r.id")) {
            q.setString(1, scope);
            q.setString(2, figure);
            q.setString(3, configKey);
            try (ResultSet rs = q.executeQuery()) {
                while (rs.next()) {
                    out.add(new SeriesPoint(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4),
                            rs.getString(5), rs.getDouble(6)));
                }
            }
        }
        return out;
    }

    /** Run {@code id} with its figures, or null when there is no such run. */
    public StoredRun run(long id) throws SQLException {
        List<StoredRun> one = new ArrayList<>();
        try (PreparedStatement q = db.prepareStatement("SELECT id, directory, started_at, workload, stack, operation, "
                + "status, label, experiment, config_key, configuration FROM runs WHERE id = ?")) {
            q.setLong(1, id);
            try (ResultSet rs = q.executeQuery()) {
                if (rs.next()) {
                    one.add(new StoredRun(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4),
                            rs.getString(5), rs.getString(6), rs.getString(7), rs.getString(8), rs.getString(9),
                            rs.getString(10), rs.getString(11), new LinkedHashMap<>()));
                }
            }
        }
        figuresOf(one);
        return one.isEmpty() ? null : one.get(0);
    }

    /** The id of the run recorded from {@code directory} most recently, or null. */
    public Long idOf(Path directory) throws SQLException {
        try (PreparedStatement q = db.prepareStatement("SELECT id FROM runs WHERE directory = ? ORDER BY started_at DESC, id DESC LIMIT 1")) {
            q.setString(1, directory.toAbsolutePath().normalize().toString());
            try (ResultSet rs = q.executeQuery()) {
                return rs.next() ? rs.getLong(1) : null;
            }
        }
    }

    /** The configuration key of run {@code id}, or null when there is no such run. */
    public String configKeyOf(long id) throws SQLException {
        try (PreparedStatement q = db.prepareStatement("SELECT config_key FROM runs WHERE id = ?")) {
            q.setLong(1, id);
            try (ResultSet rs = q.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    /** The configuration keys whose runs' keys start with {@code prefix} (a user types a few characters of one). */
    public List<String> configKeysStartingWith(String prefix) throws SQLException {
        List<String> out = new ArrayList<>();
        try (PreparedStatement q = db.prepareStatement("SELECT DISTINCT config_key FROM runs WHERE substr(config_key, 1, ?) = ?")) {
            q.setInt(1, prefix.length());
            q.setString(2, prefix);
            try (ResultSet rs = q.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
    }

    private static void equal(StringBuilder where, List<Object> args, String column, String value) {
        if (value != null) {
            where.append(" AND ").append(column).append(" = ?");
            args.add(value);
        }
    }

    private static void bind(PreparedStatement s, int index, Object value) throws SQLException {
        if (value == null) {
            s.setNull(index, Types.NULL);
        } else if (value instanceof Integer i) {
            s.setInt(index, i);
        } else if (value instanceof Double d) {
            s.setDouble(index, d);
        } else {
            s.setString(index, value.toString());
        }
    }

    @Override
    public void close() throws SQLException {
        db.close();
    }
}
