package perflab.history.store;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The history's tables, documented for users who query the file themselves (docs/history.md). The version is
 * SQLite's {@code user_version}: a file of a newer version is refused rather than written in a shape its writer did
 * not know.
 */
final class HistorySchema {
    static final int VERSION = 1;

    /** The figures {@code run_figures} turns into columns, for queries by hand. */
    private static final List<String> PIVOTED = List.of("throughput", "p50", "p99", "p999", "errors", "cpuPerRequest",
            "perCpuSecond", "gcOverhead", "rss");

    private HistorySchema() {
    }

    /** Creates the tables in a new file, or checks an existing file's version. */
    static void ensure(Connection db) throws SQLException {
        int version;
        try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery("PRAGMA user_version")) {
            version = rs.next() ? rs.getInt(1) : 0;
        }
        if (version == VERSION) {
            return;
        }
        if (version > VERSION) {
            throw new SQLException("it was written by a newer perflab (history schema " + version + ", this perflab knows "
                    + VERSION + "); use that perflab, or another --history file");
        }
        boolean auto = db.getAutoCommit();
        db.setAutoCommit(false);
        try (Statement s = db.createStatement()) {
            s.execute("""
                    CREATE TABLE IF NOT EXISTS runs (
                      id               INTEGER PRIMARY KEY,
                      directory        TEXT NOT NULL,
                      started_at       TEXT NOT NULL,
                      ended_at         TEXT,
                      recorded_at      TEXT NOT NULL,
                      workload         TEXT NOT NULL,
                      stack            TEXT,
                      operation        TEXT,
                      model            TEXT,
                      clients          INTEGER,
                      target_rate      REAL,
                      duration_s       REAL,
                      status           TEXT NOT NULL,
                      end_reason       TEXT,
                      label            TEXT,
                      experiment       TEXT,
                      perflab_revision TEXT,
                      host             TEXT,
                      cores            INTEGER,
                      jdk              TEXT,
                      collector        TEXT,
                      config_key       TEXT NOT NULL,
                      configuration    TEXT NOT NULL,
                      config_json      TEXT NOT NULL,
                      UNIQUE (directory, started_at)
                    )""");
            s.execute("CREATE INDEX IF NOT EXISTS runs_by_configuration ON runs (config_key, started_at)");
            s.execute("CREATE INDEX IF NOT EXISTS runs_by_start ON runs (started_at)");
            s.execute("""
                    CREATE TABLE IF NOT EXISTS figures (
                      run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
                      scope  TEXT NOT NULL,
                      name   TEXT NOT NULL,
                      value  REAL NOT NULL,
                      unit   TEXT NOT NULL,
                      PRIMARY KEY (run_id, scope, name)
                    ) WITHOUT ROWID""");
            StringBuilder view = new StringBuilder("CREATE VIEW IF NOT EXISTS run_figures AS SELECT r.id, r.started_at, "
                    + "r.label, r.workload, r.stack, r.operation, r.configuration, r.config_key, r.status");
            for (String f : PIVOTED) {
                view.append(", MAX(CASE WHEN f.name = '").append(f).append("' THEN f.value END) AS \"").append(f).append('"');
            }
            view.append(" FROM runs r LEFT JOIN figures f ON f.run_id = r.id AND f.scope = '' GROUP BY r.id");
            s.execute(view.toString());
            s.execute("PRAGMA user_version = " + VERSION);
            db.commit();
        } catch (SQLException e) {
            db.rollback();
            throw e;
        } finally {
            db.setAutoCommit(auto);
        }
    }
}
