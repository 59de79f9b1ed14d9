package perflab.trade;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import perflab.core.traffic.Request;
import perflab.core.traffic.Traffic;
import perflab.core.workload.Companion;
import perflab.core.workload.ServerSide;
import perflab.core.workload.TrafficOptions;
import perflab.core.workload.WorkloadSetting;
import perflab.core.workload.Workloads;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TradeWorkloadTest {
    private final TradeWorkload trade = new TradeWorkload();

    @Test
    void registeredUnderItsName() {
        assertEquals(TradeWorkload.class, Workloads.named("trade").getClass());
        assertEquals("lean", trade.stacks().get(0).name());
        assertEquals("perflab.trade.lean.TradeServer", trade.stacks().get(0).mainClass());
        assertEquals("workloads/trade/stack-lean", trade.stacks().get(0).moduleDir());
        // the studies' architecture on a Jakarta EE server: a product started from its server file
        assertEquals("liberty", trade.stacks().get(1).name());
        assertEquals("servers/trade-liberty.yaml", trade.stacks().get(1).serverFile());
    }

    @Test
    void defaultsPerSide() {
        assertEquals(Map.of("mix", "standard", "users", "15000", "quotes", "10000"),
                trade.resolveSettings(WorkloadSetting.Use.TRAFFIC, Map.of()));
        Map<String, String> server = new LinkedHashMap<>();
        server.put("users", "15000");
        server.put("quotes", "10000");
        server.put("data-access", "jdbc");
        server.put("order-processing", "sync");
        server.put("db", "h2");
        server.put("db-pool", "100");
        server.put("statement-cache", "2000");
        server.put("cache", "2000");
        server.put("market-summary-interval", "20000ms");
        assertEquals(server, trade.resolveSettings(WorkloadSetting.Use.SERVER, Map.of()), "db-url and db-cache have no default");
    }

    @Test
    void dimensionsAndSides() {
        List<String> dimensions = trade.settings().stream().filter(WorkloadSetting::dimension).map(WorkloadSetting::name).toList();
        assertEquals(List.of("users", "data-access", "order-processing", "db", "db-pool", "statement-cache", "cache"), dimensions);
        assertEquals(WorkloadSetting.Use.TRAFFIC, trade.setting("mix").use());
        assertEquals(WorkloadSetting.Use.BOTH, trade.setting("users").use());
        assertEquals(WorkloadSetting.Use.BOTH, trade.setting("quotes").use());
        for (String name : List.of("data-access", "order-processing", "db", "db-url", "db-cache", "db-outage", "db-pool",
                "statement-cache", "cache", "market-summary-interval")) {
            assertEquals(WorkloadSetting.Use.SERVER, trade.setting(name).use(), name);
        }
        trade.settings().forEach(s -> assertFalse(s.help().isBlank(), s.name()));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "mix|browse|--mix: 'browse' is not standard or jmeter",
            "users|0|--users must be within 1..10000000, got 0",
            "quotes|1|--quotes must be within 2..10000000, got 1",
            "quotes|many|--quotes: 'many' is not a whole number",
            "data-access|ejb|--data-access: 'ejb' is not jdbc or jpa",
            "order-processing|async2|--order-processing: 'async2' is not sync or async",
            "db|derby|--db: 'derby' is not h2 or postgresql",
            "db-url|jdbc:h2:mem:x|--db-url: 'jdbc:h2:mem:x' is not a PostgreSQL JDBC URL (jdbc:postgresql://host:5432/trade)",
            "db-cache|' '|--db-cache: '' is not a directory or off",
            "db-pool|0|--db-pool must be within 1..10000, got 0",
            "db-outage|40s|--db-outage: '40s' is not AFTER+LENGTH (e.g. 40s+5s: the database stops 40 s after it is ready, for 5 s)",
            "db-outage|40s+0s|--db-outage: the outage lasts 1ms..1h, got '0s'",
            "db-outage|soon+5s|--db-outage: 'soon' is not a duration; use e.g. 500ms, 30s, 2m, 1h",
            "statement-cache|-1|--statement-cache must be within 0..1000000, got -1",
            "cache|lots|--cache: 'lots' is not a whole number",
            "market-summary-interval|2h|--market-summary-interval must be whole milliseconds within 0ms..3600s, got '2h'"})
    void badValuesAreRefusedInOneLine(String name, String value, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> trade.checkSettings(Map.of(name, value)));
        assertEquals(message, e.getMessage());
    }

    @Test
    void theCacheDirectoryIsMadeAbsoluteOrOff() {
        assertEquals(Map.of("db-cache", "off"), trade.checkSettings(Map.of("db-cache", "OFF")));
        assertEquals(Map.of("db-cache", java.nio.file.Path.of("").toAbsolutePath().resolve("c").toString()),
                trade.checkSettings(Map.of("db-cache", "./b/../c")));
        assertEquals(Map.of("db-cache", "/var/tmp/pg"), trade.checkSettings(Map.of("db-cache", "/var/tmp/pg/")));
    }

    @Test
    void valuesAreMadeCanonical() {
        assertEquals(Map.of("mix", "jmeter", "market-summary-interval", "0ms", "db", "postgresql"),
                trade.checkSettings(Map.of("mix", "JMeter", "market-summary-interval", "0s", "db", "PostgreSQL")));
    }

    @Test
    void theServerGetsItsSettingsAndTheDatabaseUrlOnlyForPostgresql() {
        ServerSide h2 = trade.serverSide(trade.resolveSettings(WorkloadSetting.Use.SERVER,
                Map.of("db-url", "jdbc:postgresql://db:5432/trade", "cache", "10000")));
        assertTrue(h2.companions().isEmpty());
        assertFalse(h2.sutSettings().containsKey("db-url"));
        assertEquals("10000", h2.sutSettings().get("cache"));
        assertEquals("15000", h2.sutSettings().get("users"));

        ServerSide pg = trade.serverSide(trade.resolveSettings(WorkloadSetting.Use.SERVER,
                Map.of("db", "postgresql", "db-url", "jdbc:postgresql://db:5432/trade", "db-cache", "/c")));
        assertEquals("jdbc:postgresql://db:5432/trade", pg.sutSettings().get("db-url"));
        assertTrue(pg.companions().isEmpty(), "a server of the user's: perflab neither starts nor measures it");
        assertFalse(pg.sutSettings().containsKey("db-cache"), "the companion's setting, not the SUT's");
    }

    @Test
    void postgresqlWithoutAUrlIsACompanionStartedBeforeTheSutAndSampledAsTheDatabase() {
        ServerSide side = trade.serverSide(trade.resolveSettings(WorkloadSetting.Use.SERVER,
                Map.of("db", "postgresql", "db-pool", "300", "db-cache", "/var/tmp/pg")));
        assertEquals(1, side.companions().size());
        Companion pg = side.companions().get(0);
        assertEquals("postgres", pg.name());
        assertTrue(pg.isJvm());
        assertEquals("workloads/trade/postgres", pg.moduleDir());
        assertEquals(Companion.Start.BEFORE_SUT, pg.start());
        assertEquals(Companion.Sampling.TREE, pg.sampling(), "its backends do the work");
        assertEquals(Companion.Role.DATABASE, pg.role());
        // the SUT's URL names the port the companion announces, and the database it clones from its template
        assertEquals("jdbc:postgresql://127.0.0.1:{postgres.port}/trade?user=postgres", side.sutSettings().get("db-url"));
        assertFalse(side.sutSettings().containsKey("db-cache"));
        assertEquals("postgresql", side.sutSettings().get("db"));
        assertEquals("300", side.sutSettings().get("db-pool"));

        Map<String, String> settings = pg.settings();
        assertEquals(List.of("fsync", "synchronous_commit", "full_page_writes", "shared_buffers", "max_connections"),
                List.copyOf(settings.keySet()));
        assertEquals("off", settings.get("fsync"));
        assertEquals("on", settings.get("synchronous_commit"));
        assertEquals("320", settings.get("max_connections"), "the pool and 20 more");
        assertEquals(List.of("--settings", "fsync=off,synchronous_commit=on,full_page_writes=on,shared_buffers="
                + settings.get("shared_buffers") + ",max_connections=320", "--keep-databases", ThrowawayPostgres.SUT_TEMPLATES,
                "--cache-dir", "/var/tmp/pg"), pg.args());
        // the cache keeps the SUT's finished populations only: not one being built, not the run's database
        assertTrue("trade_u15000_q10000_dd12d520".matches(ThrowawayPostgres.SUT_TEMPLATES));
        assertFalse("trade_u15000_q10000_dd12d520_building".matches(ThrowawayPostgres.SUT_TEMPLATES));
        assertFalse("trade".matches(ThrowawayPostgres.SUT_TEMPLATES));

        Companion byDefault = trade.serverSide(trade.resolveSettings(WorkloadSetting.Use.SERVER, Map.of("db", "postgresql")))
                .companions().get(0);
        assertEquals("120", byDefault.settings().get("max_connections"));
        assertFalse(byDefault.args().contains("--cache-dir"), "the companion's own default place");
        assertFalse(byDefault.args().contains("--outage"));
    }

    @Test
    void anOutageDrillIsTheCompanionsAndOnlyForThePostgresqlPerflabStarts() {
        assertEquals(Map.of("db-outage", "40000ms+5000ms"), trade.checkSettings(Map.of("db-outage", "40s+5s")));
        ServerSide side = trade.serverSide(trade.resolveSettings(WorkloadSetting.Use.SERVER,
                Map.of("db", "postgresql", "db-outage", "40000ms+5000ms")));
        List<String> args = side.companions().get(0).args();
        assertEquals("40000ms+5000ms", args.get(args.indexOf("--outage") + 1));
        assertEquals("trade", args.get(args.indexOf("--outage-watch") + 1), "counted from the SUT's first session");
        assertFalse(side.sutSettings().containsKey("db-outage"), "the SUT is not told");
        for (Map<String, String> elsewhere : List.of(Map.of("db-outage", "1s+1s"),
                Map.of("db", "postgresql", "db-url", "jdbc:postgresql://db:5432/trade", "db-outage", "1s+1s"))) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> trade.serverSide(trade.resolveSettings(WorkloadSetting.Use.SERVER, elsewhere)));
            assertEquals("--db-outage stops the PostgreSQL perflab starts: it needs --db postgresql without --db-url",
                    e.getMessage());
        }
    }

    /**
     * A server file's server asks for the PostgreSQL perflab starts by name, whatever --db says (its stacks' setting):
     * the same companion, reached at a JDBC URL naming the port it announces; --db-cache and --db-outage are its.
     */
    @Test
    void aServerFileMayAskForThePostgresqlWhateverTheDbSetting() {
        List<Companion> offered = trade.serverFileCompanions(trade.resolveSettings(WorkloadSetting.Use.SERVER,
                Map.of("db-outage", "40000ms+5000ms")));
        assertEquals(1, offered.size());
        Companion pg = offered.get(0);
        assertEquals("postgres", pg.name());
        assertEquals(Companion.Role.DATABASE, pg.role());
        assertEquals("jdbc:postgresql://127.0.0.1:{postgres.port}/trade?user=postgres", pg.url());
        assertEquals("40000ms+5000ms", pg.args().get(pg.args().indexOf("--outage") + 1));
        assertEquals("120", pg.settings().get("max_connections"), "the default pool and 20 more");
        assertEquals(java.util.Set.of("db-cache", "db-outage"), trade.companionSettings("postgres"));
        assertTrue(trade.companionSettings("backend").isEmpty());
        // a companion of a workload's own stacks is reached over HTTP unless it says otherwise
        assertEquals("http://127.0.0.1:{backend.port}", Companion.jvm("backend", "m", "x.Main", List.of(), List.of(),
                Companion.Start.BEFORE_SUT).url());
    }

    @Test
    void sharedBuffersAreAnEighthOfTheMachineWithinBounds() {
        assertEquals("128MB", ThrowawayPostgres.settings(100, 512).get("shared_buffers"));
        assertEquals("256MB", ThrowawayPostgres.settings(100, 2048).get("shared_buffers"));
        assertEquals("1024MB", ThrowawayPostgres.settings(100, 24_105).get("shared_buffers"));
        assertTrue(ThrowawayPostgres.machineMemoryMb() > 0);
    }

    /** The companion's module and main class are named by string (the traffic does not depend on them): they exist. */
    @Test
    void theCompanionsModuleAndMainClassExist() {
        Path home = Path.of(System.getProperty("perflab.home"));
        assertTrue(Files.exists(home.resolve(ThrowawayPostgres.MODULE).resolve(".sut-stack")), "a stack classpath of its own");
        assertTrue(Files.exists(home.resolve(ThrowawayPostgres.MODULE).resolve("src/main/java")
                .resolve(ThrowawayPostgres.MAIN_CLASS.replace('.', '/') + ".java")));
    }

    @Test
    void theTrafficNamesEveryPageKindAndFollowsTheTargetsPath() {
        Traffic traffic = trade.traffic(new TrafficOptions("scenario", URI.create("http://127.0.0.1:9080/daytrader/"), 1,
                trade.resolveSettings(WorkloadSetting.Use.TRAFFIC, Map.of())));
        assertEquals(List.of("login", "logout", "register", "home", "account", "update", "portfolio", "quote", "buy",
                "sell", "rest-quotes"), traffic.requestKinds());
        Request login = traffic.newSession(new perflab.core.traffic.ClientContext(0, 1)).next();
        assertEquals("/daytrader/login", login.template().path(login));
        assertEquals("", TradeTraffic.basePath(URI.create("http://127.0.0.1:8080" + trade.servicePath())));
        assertEquals("", TradeTraffic.basePath(URI.create("http://127.0.0.1:8080")));
        assertThrows(IllegalArgumentException.class, () -> trade.traffic(new TrafficOptions("browse",
                URI.create("http://127.0.0.1:8080/login"), 1, trade.resolveSettings(WorkloadSetting.Use.TRAFFIC, Map.of()))));
    }
}
