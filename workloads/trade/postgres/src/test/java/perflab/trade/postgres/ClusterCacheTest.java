package perflab.trade.postgres;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The cache's rules on directories standing in for clusters (no PostgreSQL needed): which run's cluster replaces the
 * cached one, that a replaced one is deleted, a restore copies the cached data, and what dead runs left is swept.
 */
class ClusterCacheTest {
    @TempDir
    Path temp;

    private ClusterCache cache() throws IOException {
        Files.setPosixFilePermissions(temp, PosixFilePermissions.fromString("rwxr-xr-x")); // the postgres user's way in
        return ClusterCache.in(temp, 15);
    }

    /** A stopped run's cluster: a data directory with a marker. */
    private Path run(ClusterCache cache, String marker) throws IOException {
        Path run = cache.newRunDir(ClusterOwner.detect());
        Files.createDirectory(run.resolve("data"));
        Files.writeString(run.resolve("data").resolve("PG_VERSION"), "15\n");
        Files.writeString(run.resolve("data").resolve("marker"), marker);
        return run;
    }

    @Test
    void aClusterReplacesTheCachedOneOnlyWithMoreTemplatesIncludingAllTheCachedOnes() throws IOException {
        ClusterCache cache = cache();
        assertEquals(temp.resolve("postgresql-15"), cache.dir());
        Path a = run(cache, "a");
        assertEquals(ClusterCache.Publication.PUBLISHED, cache.publish(a, Set.of("trade_u10_q5"), "15.18", false, Duration.ofSeconds(5)));
        assertFalse(Files.exists(a), "renamed into place");
        assertEquals("a", marker(cache));
        Properties p = properties(cache);
        assertEquals("trade_u10_q5", p.getProperty("templates"));
        assertEquals("15.18", p.getProperty("postgresql"));
        assertEquals(String.join(" ", ClusterCache.INITDB_OPTIONS), p.getProperty("initdb"));

        assertEquals(ClusterCache.Publication.NOTHING_NEW, cache.publish(run(cache, "b"), Set.of("trade_u10_q5"), "15.18",
                false, Duration.ofSeconds(5)));
        assertEquals(ClusterCache.Publication.CACHE_HAS_OTHERS, cache.publish(run(cache, "c"), Set.of("trade_u99_q5"), "15.18",
                false, Duration.ofSeconds(5)), "publishing it would forget trade_u10_q5");
        assertEquals("a", marker(cache));

        Path d = run(cache, "d");
        assertEquals(ClusterCache.Publication.PUBLISHED, cache.publish(d, Set.of("trade_u10_q5", "trade_u99_q5"), "15.18",
                false, Duration.ofSeconds(5)));
        assertEquals("d", marker(cache));
        assertEquals("trade_u10_q5,trade_u99_q5", properties(cache).getProperty("templates"));

        assertEquals(ClusterCache.Publication.PUBLISHED, cache.publish(run(cache, "e"), Set.of("trade_u1_q2"), "15.18",
                true, Duration.ofSeconds(5)), "a cached cluster that would not start is replaced whatever it held");
        assertEquals("e", marker(cache));
        try (Stream<Path> left = Files.list(cache.dir())) {
            assertEquals(Set.of("cluster", "runs", "lock"), Set.copyOf(left.map(f -> f.getFileName().toString()).toList()),
                    "replaced clusters are deleted");
        }
    }

    @Test
    void aRestoreCopiesTheCachedDataAndIsNothingWithoutIt() throws IOException {
        ClusterCache cache = cache();
        ClusterOwner owner = ClusterOwner.detect();
        Path empty = cache.newRunDir(owner);
        assertNull(cache.restore(empty.resolve("data"), owner, Duration.ofSeconds(5)));
        cache.publish(run(cache, "cached"), Set.of("t"), "15.18", false, Duration.ofSeconds(5));
        Path target = cache.newRunDir(owner);
        Properties restored = cache.restore(target.resolve("data"), owner, Duration.ofSeconds(5));
        assertEquals(Set.of("t"), ClusterCache.templates(restored));
        assertEquals("cached", Files.readString(target.resolve("data").resolve("marker")));
        assertEquals("cached", marker(cache), "a copy: the cache is untouched");
        if (owner.switchesUser()) {
            assertEquals(ClusterOwner.POSTGRES_USER, Files.getOwner(target.resolve("data").resolve("marker")).getName());
        }
    }

    @Test
    void whatDeadRunsLeftIsSweptButNotALiveRunsDirectory() throws Exception {
        ClusterCache cache = cache();
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        Path dead = Files.createDirectories(cache.dir().resolve("runs").resolve(gone.pid() + "-1"));
        Files.createDirectories(dead.resolve("data"));
        Path live = Files.createDirectories(cache.dir().resolve("runs").resolve(ProcessHandle.current().pid() + "-2"));
        Path trash = Files.createDirectories(cache.dir().resolve("trash-1-2").resolve("data"));
        assertEquals(2, cache.sweep());
        assertFalse(Files.exists(dead));
        assertFalse(Files.exists(trash.getParent()));
        assertTrue(Files.exists(live));
    }

    @Test
    void theCacheLivesInTheUsersCacheDirectoryOrAsRootWhereThePostgresUserCanReachIt() {
        assertEquals(Path.of("/var/cache/perflab/trade"), ClusterCache.defaultParent(true, Map.of(), "/root"));
        assertEquals(Path.of("/home/ann/.cache/perflab/trade"), ClusterCache.defaultParent(false, Map.of(), "/home/ann"));
        assertEquals(Path.of("/xdg/perflab/trade"), ClusterCache.defaultParent(false, Map.of("XDG_CACHE_HOME", "/xdg"),
                "/home/ann"));
    }

    private static String marker(ClusterCache cache) throws IOException {
        return Files.readString(cache.cluster().resolve("data").resolve("marker"));
    }

    private static Properties properties(ClusterCache cache) throws IOException {
        Properties p = new Properties();
        try (var in = Files.newInputStream(cache.cluster().resolve(ClusterCache.PROPERTIES))) {
            p.load(in);
        }
        return p;
    }
}
