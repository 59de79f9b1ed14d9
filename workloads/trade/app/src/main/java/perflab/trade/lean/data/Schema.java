package perflab.trade.lean.data;

import perflab.trade.lean.DatabaseFailure;

import javax.sql.DataSource;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** Creates the brokerage's tables, indexes and key rows where they are missing (schema.sql; safe to repeat). */
public final class Schema {
    private Schema() {
    }

    private static final String RESOURCE = "schema.sql";

    public static void create(DataSource dataSource) {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            for (String sql : statements()) {
                s.execute(sql);
            }
            c.commit();
        } catch (SQLException e) {
            throw new DatabaseFailure("creating the trade schema failed: " + e.getMessage(), e);
        }
    }

    /** The statements of schema.sql: comment lines dropped, each ending with a semicolon at the end of a line. */
    static List<String> statements() {
        String text;
        try (InputStream in = Schema.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the classpath");
            }
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> statements = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : text.split("\n")) {
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("--")) {
                continue;
            }
            current.append(line).append('\n');
            if (trimmed.endsWith(";")) {
                String sql = current.toString().strip();
                statements.add(sql.substring(0, sql.length() - 1));
                current.setLength(0);
            }
        }
        return statements;
    }
}
