package perflab.trade.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import perflab.testsupport.PerflabProcess;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * trade's stack {@code liberty} end to end: `perflab run trade --stack liberty` unpacks Open Liberty from Maven's
 * local repository (this module's test dependency puts it there), restores the database, starts Liberty with perflab's
 * WAR, and drives it with trade's own sessions, page checks and audit, unchanged from the lean stack's. PostgreSQL
 * runs are the companion's, as for lean: the outage drill must cost counted errors only while the database is away.
 */
class TradeLibertyIT {
    private static final List<String> PAGES = List.of("login", "logout", "register", "home", "account", "update",
            "portfolio", "quote", "buy", "sell");

    /** One for the class. */
    @TempDir
    static Path work;

    /** Its runs use the module's shared cache: one unpacking of Liberty, one population of its 300 users. */
    @BeforeAll
    static void shareCache() throws java.io.IOException {
        PerflabProcess.shareCache(work);
    }

    @Test
    void everyPageOfTheLibertyStackOnH2ServesWithoutAnErrorAndTheBooksBalance() throws Exception {
        JsonNode summary = run("h2", "6s", "8s", "--order-processing", "async", "--db-pool", "20",
                "--statement-cache", "50");
        assertEquals(0, summary.get("errors").get("total").asLong(), summary.get("errors").toString());
        assertEquals("liberty", summary.get("stack").asText());
        JsonNode byKind = summary.get("byKind");
        for (String page : PAGES) {
            assertTrue(byKind.get(page).get("successes").asLong() > 0, page + " in " + byKind);
        }
        JsonNode audit = summary.get("checks").get("audit");
        assertEquals("passed", audit.get("status").asText(), "every async completion drained and booked: " + audit);
        assertTrue(audit.get("details").get("accountsChecked").asLong() >= 300, "--users reached the server: " + audit);
        String config = Files.readString(work.resolve("h2/sut-home/usr/servers/trade/server.xml"));
        assertTrue(config.contains("maxPoolSize=\"20\"") && config.contains("statementCacheSize=\"50\""),
                "trade's --db-pool and --statement-cache became the container's knobs: " + config);
        String written = Files.readString(work.resolve("h2/sut-home/usr/servers/trade/trade-db.xml"));
        assertTrue(written.contains("memorySizeInEntries=\"2000\""), "trade's --cache sized the DistributedMap: " + written);
        String log = Files.readString(work.resolve("h2/sut-home/usr/servers/trade/logs/messages.log"));
        assertTrue(log.contains("data access jdbc, quotes cached in the distributed map"), log);
        String sutOut = Files.readString(work.resolve("h2/sut.out"));
        assertTrue(sutOut.contains("trade database: "), sutOut);
        assertTrue(sutOut.contains("CWWKZ0001I: Application trade started"), "Liberty started perflab's WAR: " + sutOut);
        JsonNode startup = runJson("h2").get("processes").get("sut").get("startup");
        assertTrue(Set.of("populated", "restored").contains(startup.get("database").asText()),
                "the prepare step's facts reach run.json: " + startup);
        // --heap reached Liberty's JVM through jvm.options, and the JVM perflab found on the port is Liberty's
        JsonNode jvm = new ObjectMapper().readTree(work.resolve("h2/sut-jvm.json").toFile());
        assertEquals(256, jvm.get("heapMaxMb").asInt(), jvm.toString());
        assertTrue(Files.size(work.resolve("h2/gc.log")) > 0, "Liberty's JVM wrote the GC log perflab asked for");
    }

    /**
     * The EJB mode's heir: JPA (Liberty's EclipseLink) behind a stateless session bean, async orders completed on the
     * container's managed executor through that bean, the provider's shared cache turned on by the server's knob, and
     * the quotes in the application's own cache instead of the DistributedMap.
     */
    @Test
    void theJpaModeBehindASessionBeanServesEveryPageWithoutAnErrorAndTheBooksBalance() throws Exception {
        JsonNode summary = run("jpa", "6s", "8s", "--data-access", "jpa", "--order-processing", "async",
                "--set", "jpa-shared-cache=true", "--set", "quote-cache=caffeine");
        assertEquals(0, summary.get("errors").get("total").asLong(), summary.get("errors").toString());
        JsonNode byKind = summary.get("byKind");
        for (String page : PAGES) {
            assertTrue(byKind.get(page).get("successes").asLong() > 0, page + " in " + byKind);
        }
        JsonNode audit = summary.get("checks").get("audit");
        assertEquals("passed", audit.get("status").asText(), "every async completion drained and booked: " + audit);
        String config = Files.readString(work.resolve("jpa/sut-home/usr/servers/trade/server.xml"));
        assertTrue(config.contains("\"eclipselink.cache.shared.default\" value=\"true\""),
                "the knob reached the persistence unit's defaults: " + config);
        String log = Files.readString(work.resolve("jpa/sut-home/usr/servers/trade/logs/messages.log"));
        assertTrue(log.contains("trade: started, data access jpa, quotes cached in caffeine"),
                "the application ran the JPA mode, its quotes in the lean stack's cache: " + log);
        assertFalse(log.contains("CNTR0020E"), "no refusal or failure logged as an EJB system exception: " + log);
    }

    /**
     * On the PostgreSQL perflab starts and measures, stopped for 5 s mid-window: Liberty's pool gives up on a
     * connection after 3 s (a 503, counted), and empties itself at the first dead connection once the database is
     * back, so the last seconds serve again. The JPA mode's, so that a failure inside the session bean's transaction
     * is a counted 503 as on the lean stack (the JDBC mode meets the same pool in every other test).
     */
    @Test
    void aDatabaseStoppedForFiveSecondsCostsCountedErrorsAndLibertyRecoversByItself() throws Exception {
        JsonNode summary = run("outage", "6s", "30s", "--db", "postgresql", "--db-cache", "off", "--db-outage", "10s+5s",
                "--data-access", "jpa");
        assertEquals("postgres", summary.get("database").get("process").asText(), summary.toString());
        List<String> command = new ArrayList<>();
        runJson("outage").get("processes").get("sut").get("command").forEach(w -> command.add(w.asText()));
        int port = runJson("outage").get("processes").get("postgres").get("ports").get("port").asInt();
        assertEquals("jdbc:postgresql://127.0.0.1:" + port + "/trade?user=postgres",
                command.get(command.indexOf("--db-url") + 1), "the port PostgreSQL announced: " + command);
        JsonNode errors = summary.get("errors");
        assertTrue(errors.get("total").asLong() > 0, "the outage's failed pages are counted: " + errors);
        OutageAftermath.assertLastSecondsServeWithoutError(work.resolve("outage/timeseries.csv"));
        JsonNode audit = summary.get("checks").get("audit");
        assertEquals("passed", audit.get("status").asText(), "no transaction half-done by the outage: " + audit);
        // a page the site could not answer (a 500) is logged by TradeFrontServlet; the database's are 503s
        String log = Files.readString(work.resolve("outage/sut-home/usr/servers/trade/logs/messages.log"));
        assertFalse(log.matches("(?s).*trade: (GET|POST) \\S+ failed.*"),
                "every failed page was the database's 503, none a 500: " + log);
        assertFalse(log.contains("CNTR0020E"), "the bean's database failures are application exceptions: " + log);
    }

    private static JsonNode runJson(String name) throws java.io.IOException {
        return new ObjectMapper().readTree(work.resolve(name).resolve("run.json").toFile());
    }

    private JsonNode run(String name, String warmup, String duration, String... more) throws Exception {
        Path out = work.resolve(name);
        List<String> args = new ArrayList<>(List.of("run", "trade", "--stack", "liberty", "--users", "300", "--quotes",
                "400", "--clients", "6", "--warmup", warmup, "--duration", duration, "--heap", "256m", "--out",
                out.toString()));
        args.addAll(List.of(more));
        try (PerflabProcess p = PerflabProcess.start(work, args.toArray(String[]::new))) {
            // the module's first start of Liberty unpacks it (a minute on a busy machine) and compiles its pages on first use
            assertEquals(0, p.await(Duration.ofSeconds(420)), p.err() + p.out());
            assertTrue(p.out().contains("by kind"), p.out());
        }
        return new ObjectMapper().readTree(out.resolve("summary.json").toFile());
    }
}
