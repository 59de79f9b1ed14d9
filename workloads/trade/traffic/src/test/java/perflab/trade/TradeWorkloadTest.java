package perflab.trade;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import perflab.core.traffic.Request;
import perflab.core.traffic.Traffic;
import perflab.core.workload.ServerSide;
import perflab.core.workload.TrafficOptions;
import perflab.core.workload.WorkloadSetting;
import perflab.core.workload.Workloads;

import java.net.URI;
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
        assertEquals(server, trade.resolveSettings(WorkloadSetting.Use.SERVER, Map.of()), "db-url has no default");
    }

    @Test
    void dimensionsAndSides() {
        List<String> dimensions = trade.settings().stream().filter(WorkloadSetting::dimension).map(WorkloadSetting::name).toList();
        assertEquals(List.of("users", "data-access", "order-processing", "db", "db-pool", "statement-cache", "cache"), dimensions);
        assertEquals(WorkloadSetting.Use.TRAFFIC, trade.setting("mix").use());
        assertEquals(WorkloadSetting.Use.BOTH, trade.setting("users").use());
        assertEquals(WorkloadSetting.Use.BOTH, trade.setting("quotes").use());
        for (String name : List.of("data-access", "order-processing", "db", "db-url", "db-pool", "statement-cache", "cache",
                "market-summary-interval")) {
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
            "db-pool|0|--db-pool must be within 1..10000, got 0",
            "statement-cache|-1|--statement-cache must be within 0..1000000, got -1",
            "cache|lots|--cache: 'lots' is not a whole number",
            "market-summary-interval|2h|--market-summary-interval must be whole milliseconds within 0ms..3600s, got '2h'"})
    void badValuesAreRefusedInOneLine(String name, String value, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> trade.checkSettings(Map.of(name, value)));
        assertEquals(message, e.getMessage());
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
                Map.of("db", "postgresql", "db-url", "jdbc:postgresql://db:5432/trade")));
        assertEquals("jdbc:postgresql://db:5432/trade", pg.sutSettings().get("db-url"));

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> trade.serverSide(
                trade.resolveSettings(WorkloadSetting.Use.SERVER, Map.of("db", "postgresql"))));
        assertTrue(e.getMessage().startsWith("--db postgresql needs --db-url"), e.getMessage());
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
