package perflab.trade;

import perflab.core.workload.Companion;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The PostgreSQL perflab starts for {@code --db postgresql} without {@code --db-url}: a companion JVM
 * ({@code workloads/trade/postgres}) that runs a throwaway cluster on a free port of 127.0.0.1, restored from a cache
 * of populated template databases, and is sampled with its backends as one process tree, as the run's database.
 *
 * <p>Its settings are those of a benchmark of the application server, not of the disk: PostgreSQL does all the work
 * a durable server does per transaction (WAL written at each commit, full-page images), but never waits for the disk
 * (fsync off), whose latency on a machine shared with other builds would be the noisiest part of a request. Safe
 * only because the cluster is thrown away: a crash loses nothing kept (the cache takes only a cleanly stopped
 * cluster). They go to run.json ({@code processes.postgres.settings}) and docs/workloads/trade.md.
 */
final class ThrowawayPostgres {
    static final String NAME = "postgres";
    static final String MODULE = "workloads/trade/postgres";
    static final String MAIN_CLASS = "perflab.trade.postgres.PostgresCompanion";
    /**
     * The SUT's {@code --db-url}: the database {@code trade} as the superuser initdb made, on the port the companion
     * announces. The SUT connects to the maintenance database {@code postgres} on the same server to create
     * {@code trade} from its template.
     */
    static final String SUT_URL = "jdbc:postgresql://127.0.0.1:{" + NAME + ".port}/trade?user=postgres";
    /** The database of {@link #SUT_URL}. */
    static final String SUT_DATABASE = "trade";
    /**
     * The databases the companion's cache keeps: the SUT's populations, {@code trade_u<users>_q<quotes>_<schema hash>}
     * (stack-lean's PopulatedDatabase), which it builds as {@code ..._building} and renames once complete, so neither a
     * population cut short nor the run's own {@code trade} matches.
     */
    static final String SUT_TEMPLATES = "trade_u[0-9]+_q[0-9]+_[0-9a-f]+";
    /** The companion JVM only waits and relays PostgreSQL's log: a small heap, one collector thread, C1 only. */
    static final List<String> JVM_FLAGS = List.of("-Xms16m", "-Xmx32m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
    /** Connections beyond the SUT's pool: its own maintenance connection, the companion's, a person's psql. */
    static final int CONNECTION_SLACK = 20;

    private ThrowawayPostgres() {
    }

    /**
     * The companion for a SUT with a pool of {@code pool} connections.
     *
     * @param cache  the cache's directory, {@code off}, or null for the companion's default
     * @param outage an outage drill ({@code 40000ms+5000ms}: stopped 40 s after it is ready, for 5 s), or null
     */
    static Companion companion(int pool, String cache, String outage) {
        Map<String, String> settings = settings(pool, machineMemoryMb());
        List<String> args = new ArrayList<>(List.of("--settings", commandLine(settings), "--keep-databases", SUT_TEMPLATES));
        if (cache != null) {
            args.addAll(List.of("--cache-dir", cache));
        }
        if (outage != null) {
            // counted from the SUT's first session on its database: it opens it once restored, just before the load
            args.addAll(List.of("--outage", outage, "--outage-watch", SUT_DATABASE));
        }
        return Companion.jvm(NAME, MODULE, MAIN_CLASS, JVM_FLAGS, args, Companion.Start.BEFORE_SUT)
                .sampledAsTree().as(Companion.Role.DATABASE).withSettings(settings).reachedAt(SUT_URL);
    }

    /**
     * The server's settings, in the order run.json shows them:
     * <ul>
     *   <li>{@code fsync=off}: no flush ever waits for the disk;</li>
     *   <li>{@code synchronous_commit=on}: each commit still writes its WAL before it answers, as a durable server's
     *       does (only the flush is gone), so the CPU per transaction is a real server's;</li>
     *   <li>{@code full_page_writes=on}: the WAL volume a production server writes after each checkpoint;</li>
     *   <li>{@code shared_buffers}: an eighth of the machine's memory, 128 MB to 1 GB: the SUT, the driver and other
     *       work share the machine, and 1 GB holds the default population many times over;</li>
     *   <li>{@code max_connections}: the SUT's pool and {@value #CONNECTION_SLACK} more.</li>
     * </ul>
     */
    static Map<String, String> settings(int pool, long machineMemoryMb) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("fsync", "off");
        settings.put("synchronous_commit", "on");
        settings.put("full_page_writes", "on");
        settings.put("shared_buffers", sharedBuffersMb(machineMemoryMb) + "MB");
        settings.put("max_connections", Integer.toString(pool + CONNECTION_SLACK));
        return settings;
    }

    static long sharedBuffersMb(long machineMemoryMb) {
        return Math.max(128, Math.min(1024, machineMemoryMb / 8));
    }

    /** "name=value,..." for the companion's --settings. */
    private static String commandLine(Map<String, String> settings) {
        StringBuilder s = new StringBuilder();
        settings.forEach((name, value) -> s.append(s.length() == 0 ? "" : ",").append(name).append('=').append(value));
        return s.toString();
    }

    /** MemTotal of /proc/meminfo in MiB; 1024 where it cannot be read (then shared_buffers gets its minimum). */
    static long machineMemoryMb() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) {
                    return Long.parseLong(line.substring(9).trim().split("\\s+")[0]) / 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux
        }
        return 1024;
    }
}
