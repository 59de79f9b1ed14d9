package perflab.trade.postgres;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

/**
 * The cache that lets a run restore a populated database instead of rebuilding it: a pristine PostgreSQL cluster
 * holding the SUT's template databases, kept between runs, which each run copies into a private directory. A run
 * whose cluster gained templates the cache lacks (the SUT populated a new size) and stopped cleanly makes its
 * cluster, with every other database dropped, the new cache, by renaming it into place.
 *
 * <pre>
 * &lt;parent&gt;/postgresql-15/   one per PostgreSQL major version (the data directory's format)
 *   lock                      held shared while a run copies cluster/, exclusive while one replaces it
 *   cluster/data/             the cached cluster (a data directory after a clean shutdown)
 *   cluster/cluster.properties  its templates, PostgreSQL version, initdb options, when it was published
 *   runs/&lt;pid&gt;-&lt;n&gt;/          a run's private cluster (data/, the server's unix socket), on the same file system
 *                             as cluster/ so that publishing it is one rename; removed at the end otherwise
 *   trash-&lt;pid&gt;-&lt;n&gt;/         a replaced cluster on its way out
 * </pre>
 *
 * A run publishes only a cluster whose templates include all the cache's and more, so that two runs populating
 * different sizes at once cannot make the cache forget one of them, and the cache otherwise stays the same bytes
 * from run to run: every run starts from the same files.
 */
final class ClusterCache {
    static final String CLUSTER = "cluster";
    static final String DATA = "data";
    static final String RUNS = "runs";
    static final String LOCK = "lock";
    static final String PROPERTIES = "cluster.properties";
    /** What initdb makes: the superuser perflab's URL names, trust (on loopback only: pg_hba.conf), C collation. */
    static final java.util.List<String> INITDB_OPTIONS = java.util.List.of("--username=postgres", "--auth=trust",
            "--encoding=UTF8", "--locale=C", "--no-instructions");

    private final Path dir;

    private ClusterCache(Path dir) {
        this.dir = dir;
    }

    /** The cache for PostgreSQL {@code major} under {@code parent}, its directories created. */
    static ClusterCache in(Path parent, int major) throws IOException {
        Path dir = parent.resolve("postgresql-" + major);
        Files.createDirectories(dir.resolve(RUNS));
        return new ClusterCache(dir);
    }

    /**
     * Where the cache lives unless told: {@code $XDG_CACHE_HOME/perflab/trade} ({@code ~/.cache/perflab/trade});
     * as root {@code /var/cache/perflab/trade}, because the postgres user who owns the cluster cannot pass through
     * root's home.
     */
    static Path defaultParent(boolean root, Map<String, String> env, String home) {
        if (root) {
            return Path.of("/var/cache/perflab/trade");
        }
        String xdg = env.get("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(home, ".cache");
        return base.resolve("perflab").resolve("trade");
    }

    Path dir() {
        return dir;
    }

    Path cluster() {
        return dir.resolve(CLUSTER);
    }

    /** A new private directory for this run's cluster, the owner's and closed to others. */
    Path newRunDir(ClusterOwner owner) throws IOException {
        Path run = Files.createTempDirectory(dir.resolve(RUNS), ProcessHandle.current().pid() + "-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        owner.own(run);
        return run;
    }

    /**
     * Removes what runs that died left behind: private clusters of processes that are gone (their server got
     * SIGINT from the kernel when they died, see {@link ClusterOwner}) and replaced clusters not yet deleted.
     * Returns how many.
     */
    int sweep() {
        int removed = 0;
        try (DirectoryStream<Path> runs = Files.newDirectoryStream(dir.resolve(RUNS))) {
            for (Path run : runs) {
                String name = run.getFileName().toString();
                long pid = name.matches("\\d+-.+") ? Long.parseLong(name.substring(0, name.indexOf('-'))) : -1;
                if (pid > 0 && ProcessHandle.of(pid).isEmpty() && !serverRunsIn(run.resolve(DATA))) {
                    delete(run);
                    removed++;
                }
            }
        } catch (IOException e) {
            // nothing to sweep
        }
        try (DirectoryStream<Path> trash = Files.newDirectoryStream(dir, "trash-*")) {
            for (Path t : trash) {
                delete(t);
                removed++;
            }
        } catch (IOException e) {
            // nothing to sweep
        }
        return removed;
    }

    /** Whether the postmaster.pid of a data directory names a live process (a server still shutting down). */
    private static boolean serverRunsIn(Path data) {
        try {
            String first = Files.readAllLines(data.resolve("postmaster.pid")).get(0).trim();
            return ProcessHandle.of(Long.parseLong(first)).isPresent();
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * Copies the cached cluster's data directory to {@code target} (as the owner, so that the copy is the owner's),
     * holding the lock shared so that no run replaces it meanwhile. Returns the cached cluster's description, or
     * null when there is none (or the lock was not had within {@code wait}: then the run starts afresh).
     */
    Properties restore(Path target, ClusterOwner owner, Duration wait) throws IOException {
        try (FileChannel channel = lockFile(); FileLock lock = lock(channel, true, wait)) {
            if (lock == null) {
                return null;
            }
            Properties cached = read(cluster().resolve(PROPERTIES));
            if (cached == null || !Files.isRegularFile(cluster().resolve(DATA).resolve("PG_VERSION"))) {
                return null;
            }
            Commands.run(owner.run(java.util.List.of("cp", "-a", "--reflink=auto", cluster().resolve(DATA).toString(),
                    target.toString())), Duration.ofSeconds(45), "copying the cached cluster");
            return cached;
        }
    }

    /** Why a run's cluster was or was not made the cache's. */
    enum Publication { PUBLISHED, NOTHING_NEW, CACHE_HAS_OTHERS, BUSY }

    /**
     * Makes the stopped cluster in {@code runDir} the cache's, if its templates include all the cache's and more (or
     * {@code replaceAnyway}: the cached cluster would not start). Under the exclusive lock: the cached cluster is
     * renamed aside, {@code runDir} renamed into its place; the old one is deleted after the lock is released.
     */
    Publication publish(Path runDir, Set<String> templates, String version, boolean replaceAnyway, Duration wait)
            throws IOException {
        Path trash = null;
        try (FileChannel channel = lockFile(); FileLock lock = lock(channel, false, wait)) {
            if (lock == null) {
                return Publication.BUSY;
            }
            Properties cached = read(cluster().resolve(PROPERTIES));
            Set<String> had = cached == null ? Set.of() : templates(cached);
            if (!replaceAnyway) {
                if (!templates.containsAll(had)) {
                    return Publication.CACHE_HAS_OTHERS;
                }
                if (templates.size() == had.size()) {
                    return Publication.NOTHING_NEW;
                }
            }
            Properties description = new Properties();
            description.setProperty("templates", String.join(",", new TreeSet<>(templates)));
            description.setProperty("postgresql", version);
            description.setProperty("initdb", String.join(" ", INITDB_OPTIONS));
            description.setProperty("published", Instant.now().toString());
            try (OutputStream out = Files.newOutputStream(runDir.resolve(PROPERTIES))) {
                description.store(out, "perflab trade: the PostgreSQL cluster runs restore (docs/workloads/trade.md)");
            }
            if (Files.exists(cluster())) {
                trash = dir.resolve("trash-" + runDir.getFileName());
                Files.move(cluster(), trash, StandardCopyOption.ATOMIC_MOVE);
            }
            try {
                Files.move(runDir, cluster(), StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                if (trash != null) { // put the cached cluster back rather than lose it
                    Files.move(trash, cluster(), StandardCopyOption.ATOMIC_MOVE);
                    trash = null;
                }
                throw e;
            }
        } finally {
            if (trash != null) {
                delete(trash);
            }
        }
        return Publication.PUBLISHED;
    }

    /** The template databases a cluster description lists. */
    static Set<String> templates(Properties description) {
        Set<String> names = new TreeSet<>();
        Arrays.stream(description.getProperty("templates", "").split(",")).map(String::trim)
                .filter(s -> !s.isEmpty()).forEach(names::add);
        return names;
    }

    private FileChannel lockFile() throws IOException {
        return FileChannel.open(dir.resolve(LOCK), StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
    }

    /** The lock within {@code wait}, or null. */
    private static FileLock lock(FileChannel channel, boolean shared, Duration wait) throws IOException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            FileLock lock = channel.tryLock(0, Long.MAX_VALUE, shared);
            if (lock != null || System.nanoTime() > deadline) {
                return lock;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }
    }

    private static Properties read(Path file) {
        if (!Files.isRegularFile(file)) {
            return null;
        }
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            p.load(in);
            return p;
        } catch (IOException e) {
            return null;
        }
    }

    /** Deletes a directory tree; what disappears meanwhile (another run sweeping) is no error. */
    static void delete(Path root) {
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                    Files.deleteIfExists(d);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (NoSuchFileException e) {
            // already gone
        } catch (IOException e) {
            System.err.println("postgres: could not remove " + root + ": " + e.getMessage());
        }
    }
}
