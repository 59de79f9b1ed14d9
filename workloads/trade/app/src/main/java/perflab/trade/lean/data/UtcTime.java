package perflab.trade.lean.data;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;

/**
 * Timestamps in the TIMESTAMP (without time zone) columns are UTC, so that the data means the same whatever the
 * JVM's or the database's zone; in particular DayTrader's in-flight marker, epoch 0, stays 1970-01-01 00:00.
 */
public final class UtcTime {
    private UtcTime() {
    }

    /** Now, to the microsecond that both H2 and PostgreSQL keep (so a value reads back equal). */
    public static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MICROS);
    }

    static void bind(PreparedStatement s, int index, Instant instant) throws SQLException {
        if (instant == null) {
            s.setNull(index, Types.TIMESTAMP);
        } else {
            s.setObject(index, LocalDateTime.ofInstant(instant, ZoneOffset.UTC));
        }
    }

    static Instant read(ResultSet r, String column) throws SQLException {
        LocalDateTime t = r.getObject(column, LocalDateTime.class);
        return t == null ? null : t.toInstant(ZoneOffset.UTC);
    }
}
