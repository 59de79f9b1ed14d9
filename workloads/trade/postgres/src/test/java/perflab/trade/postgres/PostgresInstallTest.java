package perflab.trade.postgres;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Finding PostgreSQL's programs, the companion's own arguments, and the one line it fails with (no PostgreSQL needed). */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class PostgresInstallTest {
    @TempDir
    Path temp;

    @Test
    void debiansNewestMajorWithBothProgramsIsChosen() throws IOException {
        Path root = temp.resolve("usr-lib-postgresql");
        programs(root.resolve("13/bin"), "initdb", "postgres");
        programs(root.resolve("15/bin"), "initdb", "postgres", "pg_ctl");
        programs(root.resolve("16/bin"), "postgres"); // a client-only or broken install: no initdb
        Files.createDirectories(root.resolve("common"));
        assertEquals(root.resolve("15/bin"), PostgresInstall.discover(root, "/nowhere"));
    }

    @Test
    void elseThePathsPostgresWhereItReallyLives() throws IOException {
        Path real = programs(temp.resolve("opt/pg/bin"), "initdb", "postgres");
        Path local = Files.createDirectories(temp.resolve("usr-local-bin"));
        Files.createSymbolicLink(local.resolve("postgres"), real.resolve("postgres")); // as /usr/local/bin/postgres may be
        assertEquals(real.toRealPath(), PostgresInstall.discover(temp.resolve("none"), "/nowhere:" + local));
    }

    @Test
    void noPostgresqlIsOneLineNamingThePackage() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> PostgresInstall.discover(temp.resolve("none"), temp.toString()));
        assertEquals("PostgreSQL is not installed: no initdb and postgres in " + temp.resolve("none")
                + "/<version>/bin or on the PATH; install the Debian package postgresql (apt-get install -y postgresql)",
                e.getMessage());
        assertEquals(15, PostgresInstall.major("15.18"));
    }

    @Test
    void theCompanionFailsInOneLineWhenTheServerIsMissing() throws Exception {
        Path empty = Files.createDirectory(temp.resolve("bin"));
        try (CompanionProcess pg = CompanionProcess.start(temp.resolve("err.txt"), "--postgres-bin", empty.toString())) {
            assertEquals(3, pg.awaitExit());
            assertEquals(List.of("PERFLAB-FAILED no PostgreSQL server in " + empty + ": initdb is missing; install the "
                    + "Debian package postgresql (apt-get install -y postgresql)"), pg.out);
        }
    }

    @Test
    void settingsAreNameValuePairsForTheCommandLineAndNotTheCompanionsOwn() {
        assertEquals(List.of("fsync", "shared_buffers"), List.copyOf(PostgresCompanion.settings(
                "fsync=off, shared_buffers=1024MB").keySet()));
        assertEquals(Map.of(), PostgresCompanion.settings(""));
        assertEquals("--settings: 'fsync' is not name=value (a PostgreSQL setting, e.g. fsync=off)",
                assertThrows(IllegalArgumentException.class, () -> PostgresCompanion.settings("fsync")).getMessage());
        assertEquals("--settings: 'work_mem=4MB;DROP' is not name=value (a PostgreSQL setting, e.g. fsync=off)",
                assertThrows(IllegalArgumentException.class, () -> PostgresCompanion.settings("work_mem=4MB;DROP")).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PostgresCompanion.settings("port=5432"))
                .getMessage().startsWith("--settings: port is the companion's own"));
    }

    @Test
    void theDatabasesToKeepAreARegularExpressionOverWholeNames() {
        assertTrue(PostgresCompanion.keepPattern("trade_u[0-9]+_q[0-9]+_[0-9a-f]+").matcher("trade_u1_q2_ab12").matches());
        assertEquals(null, PostgresCompanion.keepPattern(null));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PostgresCompanion.keepPattern("trade_u[0-9"))
                .getMessage().startsWith("--keep-databases: 'trade_u[0-9' is not a regular expression: "));
    }

    private static Path programs(Path bin, String... names) throws IOException {
        Files.createDirectories(bin);
        for (String name : names) {
            Files.writeString(bin.resolve(name), "#!/bin/sh\n");
            Files.setPosixFilePermissions(bin.resolve(name), PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        return bin;
    }
}
