package perflab.trade.postgres;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The scratch server other modules' tests use (stack-lean's TradeFixture): fast settings, and nothing left after close. */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ScratchPostgresTest {
    @BeforeAll
    static void postgresIsInstalled() {
        assumeTrue(PostgresInstall.isInstalled(), "PostgreSQL is not installed (Debian package postgresql)");
    }

    @Test
    void aServerStartedFromAThreadThatHasEndedServesUntilClosedAndThenNothingIsLeft() throws Exception {
        // as a test's fixture may: started by a thread that ends at once (the kernel would stop a postmaster tied to it)
        FutureTask<ScratchPostgres> starting = new FutureTask<>(ScratchPostgres::start);
        Thread starter = new Thread(starting, "short-lived");
        starter.start();
        starter.join();
        Path data;
        try (ScratchPostgres pg = starting.get()) {
            Thread.sleep(500); // time for a parent-death signal to arrive, were the server tied to the ended thread
            try (Connection c = DriverManager.getConnection(pg.jdbcUrl("postgres")); Statement s = c.createStatement()) {
                assertEquals("off", show(s, "fsync"));
                assertEquals("off", show(s, "synchronous_commit"));
                assertEquals("127.0.0.1", show(s, "listen_addresses"));
                assertEquals(String.valueOf(pg.port()), show(s, "port"));
                s.execute("CREATE TABLE t (x int)");
                assertEquals(1, s.executeUpdate("INSERT INTO t VALUES (1)"));
                data = Path.of(show(s, "data_directory"));
            }
            assertTrue(Files.isDirectory(data), data.toString());
            long postmaster = Long.parseLong(Files.readAllLines(data.resolve("postmaster.pid")).get(0).trim());
            java.util.List<ProcessHandle> server = ProcessHandle.of(postmaster).stream()
                    .flatMap(p -> java.util.stream.Stream.concat(java.util.stream.Stream.of(p), p.descendants())).toList();
            assertFalse(server.isEmpty(), "the postmaster " + postmaster + " runs");
            pg.close();
            for (ProcessHandle p : server) {
                assertFalse(p.onExit().completeOnTimeout(p, 20, TimeUnit.SECONDS).join().isAlive(),
                        "still running after close: " + p.pid());
            }
            assertFalse(Files.exists(data.getParent()), "its temporary directory is removed: " + data.getParent());
        } // closed a second time: nothing happens
    }

    private static String show(Statement s, String setting) throws SQLException {
        try (ResultSet r = s.executeQuery("SHOW " + setting)) {
            r.next();
            return r.getString(1);
        }
    }
}
