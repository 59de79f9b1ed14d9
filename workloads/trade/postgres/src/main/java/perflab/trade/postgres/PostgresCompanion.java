package perflab.trade.postgres;

import perflab.core.sut.RunningServer;
import perflab.core.sut.SutArgs;
import perflab.core.sut.SutBootstrap;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * perflab's companion that runs a throwaway PostgreSQL cluster for the trade workload: a small JVM following
 * perflab's process protocol ({@link SutBootstrap}) whose child is the postmaster. It restores the cluster from its
 * cache (or initdb's one), starts {@code postgres} on a free port of 127.0.0.1, prints {@code PERFLAB-READY port=N}
 * once a connection works, and when its stdin closes (or on SIGTERM) stops it with a fast shutdown, keeps the
 * cluster as the new cache if it gained template databases, and removes the rest ({@link ThrowawayCluster}).
 *
 * <p>Settings ({@code --name value}):
 * <ul>
 *   <li>{@code --settings "fsync=off,shared_buffers=1024MB,..."}: PostgreSQL settings for the server's command
 *       line (the durability settings the workload chose; see docs/workloads/trade.md);</li>
 *   <li>{@code --cache-dir DIR}: where the cache lives ({@code DIR/postgresql-<major>/}); {@code off}: no cache,
 *       a fresh cluster in a temporary directory every time. Default: {@code ~/.cache/perflab/trade}
 *       ({@code $XDG_CACHE_HOME}), as root {@code /var/cache/perflab/trade};</li>
 *   <li>{@code --keep-databases REGEX}: the databases the cache keeps besides those marked as templates: the SUT's
 *       populated ones (trade's {@code trade_u<users>_q<quotes>_<schema>}); every other database is dropped before a
 *       cluster is kept. Default: none;</li>
 *   <li>{@code --postgres-bin DIR}: the directory of initdb and postgres, instead of looking for them;</li>
 *   <li>{@code --outage AFTER+LENGTH}: an outage drill ({@link OutageDrill}): the server stopped AFTER it is ready,
 *       for LENGTH (e.g. {@code 40s+5s}); with {@code --outage-watch DATABASE}, AFTER the first session on that
 *       database instead (the SUT's).</li>
 * </ul>
 * Errors are one line ({@code PERFLAB-FAILED <reason>}, exit status 3), e.g. when PostgreSQL is not installed.
 */
public final class PostgresCompanion {
    static final String SETTINGS = "settings";
    static final String CACHE_DIR = "cache-dir";
    static final String POSTGRES_BIN = "postgres-bin";
    static final String KEEP_DATABASES = "keep-databases";
    static final String OFF = "off";
    /** Set by the companion itself, never by --settings. */
    private static final Set<String> OWN = Set.of("listen_addresses", "port", "unix_socket_directories");

    private PostgresCompanion() {
    }

    public static void main(String[] args) {
        SutBootstrap.run(args, Set.of(SETTINGS, CACHE_DIR, POSTGRES_BIN, KEEP_DATABASES, OutageDrill.FLAG,
                OutageDrill.WATCH_FLAG), PostgresCompanion::start);
    }

    static RunningServer start(SutArgs args) throws Exception {
        String host = args.get("host", "127.0.0.1");
        if (!host.equals("127.0.0.1")) {
            throw new IllegalArgumentException("--host " + host + ": the throwaway cluster listens on 127.0.0.1 only");
        }
        Map<String, String> settings = settings(args.get(SETTINGS, ""));
        PostgresInstall install = PostgresInstall.find(args.has(POSTGRES_BIN) ? Path.of(args.get(POSTGRES_BIN, null)) : null);
        ClusterOwner owner = ClusterOwner.detect();
        String cacheDir = args.get(CACHE_DIR, null);
        Path parent = OFF.equals(cacheDir) ? null : cacheDir != null ? Path.of(cacheDir)
                : ClusterCache.defaultParent(ClusterOwner.isRoot(), System.getenv(), System.getProperty("user.home"));
        OutageDrill drill = OutageDrill.parse(args.get(OutageDrill.FLAG, null),
                args.get(OutageDrill.WATCH_FLAG, null)); // a bad one fails before any work
        ThrowawayCluster cluster = ThrowawayCluster.start(install, owner, parent, args.getInt("port", 0), settings,
                keepPattern(args.get(KEEP_DATABASES, null)));
        if (drill != null) {
            cluster.drill(drill);
        }
        return cluster;
    }

    /** The --keep-databases pattern, matched against whole names; null for none. */
    static Pattern keepPattern(String regex) {
        if (regex == null || regex.isBlank()) {
            return null;
        }
        try {
            return Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("--" + KEEP_DATABASES + ": '" + regex + "' is not a regular expression: "
                    + e.getDescription());
        }
    }

    /** "fsync=off,shared_buffers=1024MB" as an ordered map; one-line reason for what cannot go on a command line. */
    static Map<String, String> settings(String list) {
        Map<String, String> settings = new LinkedHashMap<>();
        for (String item : list.split(",")) {
            if (item.isBlank()) {
                continue;
            }
            int eq = item.indexOf('=');
            String name = eq < 0 ? item.trim() : item.substring(0, eq).trim();
            String value = eq < 0 ? "" : item.substring(eq + 1).trim();
            if (!name.matches("[a-z_][a-z0-9_.]*") || !value.matches("[A-Za-z0-9._:-]+")) {
                throw new IllegalArgumentException("--" + SETTINGS + ": '" + item.trim() + "' is not name=value "
                        + "(a PostgreSQL setting, e.g. fsync=off)");
            }
            if (OWN.contains(name)) {
                throw new IllegalArgumentException("--" + SETTINGS + ": " + name + " is the companion's own (it listens "
                        + "on a free port of 127.0.0.1)");
            }
            settings.put(name, value);
        }
        return settings;
    }
}
