package perflab.trade.lean.data;

import perflab.trade.lean.DatabaseFailure;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * Runs a unit of work in one transaction on a pooled connection: commit on success, roll back on anything else.
 * A deadlock or lock timeout is retried (the database chose a victim; the work is still valid), a few times.
 */
public final class Transactions {
    /** Work on a connection inside a transaction. */
    interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    public static final int ATTEMPTS = 3;

    private final DataSource dataSource;

    public Transactions(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    DataSource dataSource() {
        return dataSource;
    }

    <T> T run(String what, Work<T> work) {
        for (int attempt = 1; ; attempt++) {
            try (Connection c = dataSource.getConnection()) {
                if (c.getAutoCommit()) {
                    c.setAutoCommit(false);
                }
                try {
                    T result = work.run(c);
                    c.commit();
                    return result;
                } catch (SQLException | RuntimeException | Error e) {
                    rollback(c, e);
                    throw e;
                }
            } catch (SQLException e) {
                if (attempt < ATTEMPTS && retryable(e)) {
                    continue;
                }
                throw new DatabaseFailure(what + " failed: " + e.getMessage(), e);
            }
        }
    }

    /** Serialization failure or deadlock victim (SQL standard, PostgreSQL's 40P01), or H2's lock timeout. */
    public static boolean retryable(SQLException e) {
        String state = e.getSQLState();
        return state != null && (state.startsWith("40") || state.equals("HYT00"));
    }

    /** A unique key was violated (the same SQLSTATE on H2 and PostgreSQL). */
    public static boolean duplicateKey(SQLException e) {
        return "23505".equals(e.getSQLState());
    }

    private static void rollback(Connection c, Throwable cause) {
        try {
            c.rollback();
        } catch (SQLException e) {
            cause.addSuppressed(e);
        }
    }
}
