package perflab.trade.postgres;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The companion against a real PostgreSQL (Debian's package; CI installs it): it starts a cluster and announces its
 * port, the settings it was given are in force, the cache keeps a template database from one run to the next, and
 * whether perflab closes its stdin, sends SIGTERM or SIGKILLs it, no postgres process and no private directory
 * outlives it. Every wait is bounded.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class PostgresCompanionTest {
    @TempDir
    Path temp;
    private Path cacheParent;

    @BeforeAll
    static void postgresIsInstalled() {
        assumeTrue(PostgresInstall.isInstalled(), "PostgreSQL is not installed (Debian package postgresql)");
    }

    /** A cache directory the postgres user can reach when the tests run as root (a @TempDir is closed to others). */
    private Path cacheParent() throws IOException {
        if (cacheParent == null) {
            Files.setPosixFilePermissions(temp, PosixFilePermissions.fromString("rwxr-xr-x"));
            cacheParent = Files.createDirectory(temp.resolve("cache"));
        }
        return cacheParent;
    }

    private Path cacheDir() throws IOException {
        return cacheParent().resolve("postgresql-" + PostgresInstall.find(null).major());
    }

    /** The SUT's populations as trade names them (stack-lean's PopulatedDatabase). */
    private static final String POPULATIONS = "trade_u[0-9]+_q[0-9]+_[0-9a-f]+";

    private CompanionProcess start(String... more) throws IOException {
        List<String> args = new ArrayList<>(List.of("--cache-dir", cacheParent().toString(), "--settings",
                CompanionProcess.SETTINGS, "--keep-databases", POPULATIONS));
        args.addAll(List.of(more));
        return CompanionProcess.start(temp.resolve("postgres-" + System.nanoTime() + ".err"), args.toArray(String[]::new));
    }

    @Test
    void aClusterAnswersWithItsSettingsAndNothingOutlivesTheCompanionWhenItsStdinCloses() throws Exception {
        try (CompanionProcess pg = start().ready()) {
            assertTrue(pg.line("initdb in").contains("no cluster cached in " + cacheDir()), pg.out.toString());
            try (Connection c = pg.connect("postgres"); Statement s = c.createStatement()) {
                assertEquals("off", show(s, "fsync"));
                assertEquals("on", show(s, "synchronous_commit"));
                assertEquals("on", show(s, "full_page_writes"));
                assertEquals("128MB", show(s, "shared_buffers"));
                assertEquals("120", show(s, "max_connections"));
                assertEquals("127.0.0.1", show(s, "listen_addresses"));
                assertEquals(String.valueOf(pg.port), show(s, "port"));
                assertEquals("UTF8", show(s, "server_encoding"));
                assertEquals("C", show(s, "lc_collate"));
            }
            // the postmaster is the companion's own child, with its backends under it: a tree perflab can sample
            List<ProcessHandle> tree = pg.tree();
            assertTrue(tree.stream().anyMatch(h -> h.parent().map(ProcessHandle::pid).orElse(-1L) == pg.process.pid()
                    && h.info().command().orElse("").endsWith("/postgres")), "postmaster under the companion: " + tree);
            assertTrue(tree.size() >= 4, "the postmaster and its background processes: " + tree.size());
            assertEquals(1, runs().size(), "its private directory");

            assertEquals(0, pg.closeStdin(), pg.out.toString());
            CompanionProcess.assertAllGone(tree, 20);
            CompanionProcess.assertNoProcessMentions(cacheDir());
            assertEquals(List.of(), runs(), "the private directory is removed");
            assertFalse(Files.exists(cacheDir().resolve(ClusterCache.CLUSTER)), "no templates: nothing to cache");
            pg.line("server stopped (fast shutdown)");
        }
    }

    @Test
    void aPopulationIsKeptForTheNextRunWhichClonesItAndSigtermStopsItCleanly() throws Exception {
        try (CompanionProcess first = start().ready()) {
            // what the SUT does (stack-lean's PopulatedDatabase): build under a temporary name, rename once complete
            try (Connection c = first.connect("postgres"); Statement s = c.createStatement()) {
                s.execute("CREATE DATABASE trade_u2_q3_0badcafe_building");
                s.execute("CREATE DATABASE trade_u9_q9_0badcafe_building"); // a population cut short
                s.execute("CREATE DATABASE other_template IS_TEMPLATE true"); // marked as a template: kept too
            }
            try (Connection c = first.connect("trade_u2_q3_0badcafe_building"); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE quote (symbol varchar(250) primary key, price decimal(14, 2))");
                s.execute("INSERT INTO quote VALUES ('s:0', 12.50), ('s:1', 7.25)");
            }
            try (Connection c = first.connect("postgres"); Statement s = c.createStatement()) {
                s.execute("ALTER DATABASE trade_u2_q3_0badcafe_building RENAME TO trade_u2_q3_0badcafe");
                s.execute("CREATE DATABASE trade TEMPLATE trade_u2_q3_0badcafe");
            }
            try (Connection c = first.connect("trade"); Statement s = c.createStatement()) {
                s.execute("UPDATE quote SET price = 99 WHERE symbol = 's:0'"); // the run's changes stay in trade
            }
            assertEquals(0, first.closeStdin(), first.out.toString());
            assertTrue(first.line("is now the cache's").contains("(templates: other_template, trade_u2_q3_0badcafe)"),
                    first.out.toString());
        }
        Properties cached = new Properties();
        try (InputStream in = Files.newInputStream(cacheDir().resolve(ClusterCache.CLUSTER).resolve(ClusterCache.PROPERTIES))) {
            cached.load(in);
        }
        assertEquals("other_template,trade_u2_q3_0badcafe", cached.getProperty("templates"));
        assertEquals(List.of(), runs());

        try (CompanionProcess second = start().ready()) {
            assertTrue(second.line("cluster restored from the cache").contains("(templates: other_template, trade_u2_q3_0badcafe)"),
                    second.out.toString());
            try (Connection c = second.connect("postgres"); Statement s = c.createStatement()) {
                assertEquals(List.of("other_template", "trade_u2_q3_0badcafe"), databases(s),
                        "the populations alone were kept: trade and the unfinished one were dropped");
                s.execute("CREATE DATABASE trade TEMPLATE trade_u2_q3_0badcafe");
            }
            try (Connection c = second.connect("trade"); Statement s = c.createStatement();
                 ResultSet r = s.executeQuery("SELECT price FROM quote WHERE symbol = 's:0'")) {
                assertTrue(r.next());
                assertEquals(0, new java.math.BigDecimal("12.50").compareTo(r.getBigDecimal(1)), "the populated state, not the last run's");
            }
            List<ProcessHandle> tree = second.tree();
            // SIGTERM alone (Process.destroy would also close its stdin): the shutdown hooks stop the server the same way
            second.process.toHandle().destroy();
            assertEquals(143, second.awaitExit(), "ended by the signal (128 + 15), its stdin still open: " + second.out);
            CompanionProcess.assertAllGone(tree, 20);
            CompanionProcess.assertNoProcessMentions(cacheDir());
            second.line("the cache already holds every template of this run (other_template, trade_u2_q3_0badcafe)");
            second.line("server stopped (fast shutdown)");
        }
        assertEquals(List.of(), runs());
        Properties after = new Properties();
        try (InputStream in = Files.newInputStream(cacheDir().resolve(ClusterCache.CLUSTER).resolve(ClusterCache.PROPERTIES))) {
            after.load(in);
        }
        assertEquals(cached.getProperty("published"), after.getProperty("published"), "nothing new: the cache is untouched");
    }

    @Test
    void aKilledCompanionTakesItsServerWithItAndTheNextRunSweepsItsDirectory() throws Exception {
        Path runDir;
        try (CompanionProcess pg = start().ready()) {
            List<ProcessHandle> tree = pg.tree();
            runDir = runs().get(0);
            pg.process.destroyForcibly(); // SIGKILL: no hook runs; the kernel sends the postmaster SIGINT
            pg.awaitExit();
            CompanionProcess.assertAllGone(tree, 30);
            CompanionProcess.assertNoProcessMentions(cacheDir());
        }
        assertTrue(Files.exists(runDir), "left behind by the killed companion");
        try (CompanionProcess next = start().ready()) {
            next.line("left by runs that did not end cleanly");
            assertFalse(Files.exists(runDir));
            assertEquals(0, next.closeStdin());
        }
        assertEquals(List.of(), runs());
    }

    @Test
    void withoutACacheTheClusterIsFreshAndRemoved() throws Exception {
        try (CompanionProcess pg = CompanionProcess.start(temp.resolve("off.err"), "--cache-dir", "off").ready()) {
            assertTrue(pg.line("initdb in").startsWith("postgres: no cache (--cache-dir off)"));
            String ready = pg.line("data in ");
            Path data = Path.of(ready.substring(ready.indexOf("data in ") + 8).split(";")[0].trim());
            assertTrue(Files.isDirectory(data), data.toString());
            try (Connection c = pg.connect("postgres"); Statement s = c.createStatement()) {
                assertEquals("on", show(s, "fsync"), "no settings given: PostgreSQL's own");
            }
            assertEquals(0, pg.closeStdin());
            CompanionProcess.assertNoProcessMentions(data);
            assertFalse(Files.exists(data.getParent()), "its temporary directory is removed");
        }
    }

    @Test
    void anOutageDrillWaitsForTheWatchedDatabaseBreaksItsSessionsThenServesTheSameDataOnTheSamePort() throws Exception {
        try (CompanionProcess pg = CompanionProcess.start(temp.resolve("outage.err"), "--cache-dir", "off",
                "--outage", "1s+4s", "--outage-watch", "app").ready()) {
            pg.line("outage drill planned: the server stops 1.0 s after the first session on app, for 4.0 s");
            try (Connection admin = pg.connect("postgres"); Statement s = admin.createStatement()) {
                s.execute("CREATE DATABASE app");
            }
            Thread.sleep(3000);
            assertFalse(pg.out.stream().anyMatch(l -> l.contains("server stopped")), "no session on app yet: " + pg.out);
            try (Connection app = pg.connect("app"); Statement s = app.createStatement()) {
                s.execute("CREATE TABLE kept (n int)");
                s.execute("INSERT INTO kept VALUES (42)");
                pg.awaitLine("outage drill: the first session on app", 60);
                String stopped = pg.awaitLine("outage drill: server stopped (fast shutdown)", 60);
                assertThrows(SQLException.class, () -> s.executeQuery("SELECT 1"),
                        "a session open before the outage is ended by it: " + stopped);
            }
            String back = pg.awaitLine("outage drill: serving again", 60);
            double away = Double.parseDouble(back.replaceAll(".*, ([0-9.]+) s after it stopped.*", "$1"));
            assertTrue(away >= 4.0 && away < 60, back);
            try (Connection after = pg.connect("app"); Statement s = after.createStatement();
                 ResultSet r = s.executeQuery("SELECT n FROM kept")) {
                assertTrue(r.next(), "the data outlived the outage");
                assertEquals(42, r.getInt(1));
            }
            List<ProcessHandle> tree = pg.tree();
            assertEquals(0, pg.closeStdin());
            CompanionProcess.assertAllGone(tree, 30);
        }
    }

    @Test
    void aMalformedOutageIsRefusedInOneLineBeforeAnyClusterIsMade() throws Exception {
        try (CompanionProcess pg = CompanionProcess.start(temp.resolve("bad.err"), "--cache-dir", "off",
                "--outage", "5s")) {
            assertEquals(3, pg.awaitExit());
            assertTrue(pg.line("PERFLAB-FAILED").contains("--outage: '5s' is not AFTER+LENGTH"), pg.out.toString());
            assertFalse(pg.out.stream().anyMatch(l -> l.contains("initdb")), pg.out.toString());
        }
    }

    @Test
    void asRootACacheThePostgresUserCannotReachIsRefusedInOneLine() throws Exception {
        assumeTrue(ClusterOwner.isRoot(), "runs as root only: another user's cache is its own");
        Path closed = Files.createDirectory(temp.resolve("closed"), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwx------")));
        Files.setPosixFilePermissions(temp, PosixFilePermissions.fromString("rwxr-xr-x"));
        try (CompanionProcess pg = CompanionProcess.start(temp.resolve("closed.err"), "--cache-dir", closed.toString())) {
            assertEquals(3, pg.awaitExit());
            String failed = pg.line("PERFLAB-FAILED");
            assertTrue(failed.startsWith("PERFLAB-FAILED the user postgres cannot write in " + closed), failed);
            assertTrue(failed.contains("--db-cache"), failed);
            try (Stream<Path> left = Files.list(closed.resolve("postgresql-" + PostgresInstall.find(null).major())
                    .resolve(ClusterCache.RUNS))) {
                assertEquals(List.of(), left.toList(), "its private directory is removed");
            }
        }
    }

    private List<Path> runs() throws IOException {
        try (Stream<Path> runs = Files.list(cacheDir().resolve(ClusterCache.RUNS))) {
            return runs.toList();
        }
    }

    private static String show(Statement s, String setting) throws SQLException {
        try (ResultSet r = s.executeQuery("SHOW " + setting)) {
            r.next();
            return r.getString(1);
        }
    }

    private static List<String> databases(Statement s) throws SQLException {
        List<String> names = new ArrayList<>();
        try (ResultSet r = s.executeQuery("SELECT datname FROM pg_database WHERE datname NOT IN "
                + "('postgres', 'template0', 'template1') ORDER BY datname")) {
            while (r.next()) {
                names.add(r.getString(1));
            }
        }
        return names;
    }
}
