package perflab.trade.it;

import perflab.testsupport.PerflabProcess;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The brokerage end to end through `perflab run trade`: the driver's sessions against the lean stack's real pages
 * and H2 database, every page checked, DayTrader's mix in summary.json's per-kind figures; the first run populates
 * the database, the second restores it.
 */
class TradeRunIT {
    private static final List<String> PAGES = List.of("login", "logout", "register", "home", "account", "update",
            "portfolio", "quote", "buy", "sell");

    @TempDir
    Path work;

    @Test
    void sessionsGoThroughEveryPageWithoutAnErrorAndTheSecondRunRestores() throws Exception {
        JsonNode first = run("first", "4s", "8s");
        assertEquals(0, first.get("errors").get("total").asLong(), first.get("errors").toString());
        JsonNode byKind = first.get("byKind");
        for (String page : PAGES) {
            assertTrue(byKind.get(page).get("successes").asLong() > 0, page + " in " + byKind);
        }
        // the standard mix: quotes 40 %, home 20 %; a sell with nothing to sell buys instead, so sells are fewer
        double requests = first.get("requests").asDouble();
        double quoteShare = byKind.get("quote").get("requests").asDouble() / requests;
        assertTrue(quoteShare > 0.30 && quoteShare < 0.50, "quote share " + quoteShare);
        assertTrue(byKind.get("buy").get("requests").asLong() >= byKind.get("sell").get("requests").asLong(), byKind.toString());
        JsonNode audit = first.get("checks").get("audit");
        assertEquals("passed", audit.get("status").asText(), audit.toString());
        assertTrue(audit.get("details").get("accountsChecked").asLong() >= 300, "every account, registered ones too: " + audit);
        String sutOut = Files.readString(work.resolve("first/sut.out"));
        assertTrue(sutOut.contains("trade database: populated in"), sutOut);
        JsonNode populated = startup("first", "sut");
        assertEquals("populated", populated.get("database").asText(), populated.toString());
        assertTrue(populated.get("populationSeconds").asDouble() > 0, populated.toString());

        // what the second run is for is where its data came from; every page's success and the mix are the first
        // run's (8 s): a short window is enough to show the restored database serving pages without an error
        JsonNode second = run("second", "2s", "4s");
        assertEquals(0, second.get("errors").get("total").asLong(), second.get("errors").toString());
        assertTrue(second.get("successes").asLong() > 0, "the restored database served pages: " + second);
        String restored = Files.readString(work.resolve("second/sut.out"));
        assertFalse(restored.contains("populated in"), "the second run restores the first run's population: " + restored);
        assertTrue(restored.contains("trade database: restored from"), restored);
        JsonNode restore = startup("second", "sut");
        assertEquals("restored", restore.get("database").asText(), restore.toString());
        assertEquals(0.0, restore.get("populationSeconds").asDouble(), restore.toString());
        assertTrue(restore.get("restoreSeconds").isNumber(), restore.toString());
    }

    /**
     * PostgreSQL stopped for 5 s in the middle of the measured window (the companion's outage drill, counted from
     * the SUT's first session on its database): the pages that meet the outage fail and are counted, the SUT serves
     * again by itself once the database is back (its last seconds have no error), and the books still balance.
     */
    @Test
    void aDatabaseStoppedForFiveSecondsCostsCountedErrorsAndTheServerRecoversByItself() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/usr/lib/postgresql")),
                "PostgreSQL is not installed (Debian package postgresql; .ci/run installs it)");
        JsonNode summary = run("outage", "4s", "34s", "--db", "postgresql", "--db-cache", "off", "--db-outage", "8s+5s");
        String companion = Files.readString(work.resolve("outage/postgres.out"));
        assertTrue(companion.contains("outage drill: server stopped (fast shutdown)"), companion);
        assertTrue(companion.contains("outage drill: serving again"), companion);
        assertEquals("initdb", startup("outage", "postgres").get("cluster").asText(), "--db-cache off: a fresh cluster");
        JsonNode errors = summary.get("errors");
        assertTrue(errors.get("total").asLong() > 0, "the outage's failed pages are counted: " + errors);
        assertTrue(errors.get("httpStatus").asLong() > 0, "pages that say the database is away (503): " + errors);

        OutageAftermath.assertLastSecondsServeWithoutError(work.resolve("outage/timeseries.csv"));
        JsonNode audit = summary.get("checks").get("audit");
        assertEquals("passed", audit.get("status").asText(), "no transaction half-done by the outage: " + audit);
    }

    /**
     * A server of the user's own (here the lean stack started as a plain command from servers/trade-lean-postgresql.yaml)
     * asks for trade's PostgreSQL by name: perflab starts it first, fills its JDBC URL into the server's command, and
     * measures it as the run's database; the server populates what the traffic's --users and --quotes pick from.
     */
    @Test
    void aServerFilesServerRunsOnThePostgresqlItAsksFor() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/usr/lib/postgresql")),
                "PostgreSQL is not installed (Debian package postgresql; .ci/run installs it)");
        Path file = PerflabProcess.home().resolve("servers/trade-lean-postgresql.yaml");
        JsonNode summary = run("file", "3s", "6s", "--server", file.toString(), "--db-cache", "off");
        assertEquals(0, summary.get("errors").get("total").asLong(), summary.get("errors").toString());
        assertEquals("trade-lean-postgresql", summary.get("stack").asText());
        JsonNode audit = summary.get("checks").get("audit");
        assertEquals("passed", audit.get("status").asText(), audit.toString());
        assertTrue(audit.get("details").get("accountsChecked").asLong() >= 300, "--users reached the server: " + audit);
        JsonNode database = summary.get("database");
        assertEquals("postgres", database.get("process").asText(), summary.toString());
        assertTrue(database.get("cpuMicrosPerRequest").asDouble() > 0, database.toString());
        assertEquals("initdb", startup("file", "postgres").get("cluster").asText(), "--db-cache off reached it");

        JsonNode processes = new ObjectMapper().readTree(work.resolve("file/run.json").toFile()).get("processes");
        List<String> command = new ArrayList<>();
        processes.get("sut").get("command").forEach(w -> command.add(w.asText()));
        String url = command.get(command.indexOf("--db-url") + 1);
        assertEquals("jdbc:postgresql://127.0.0.1:" + processes.get("postgres").get("ports").get("port").asInt()
                + "/trade?user=postgres", url, "the port PostgreSQL announced: " + command);
        assertEquals("300", command.get(command.indexOf("--users") + 1), command.toString());
        assertEquals("populated", startup("file", "sut").get("database").asText());
    }

    /** The startup facts run.json keeps for {@code process} of run {@code name}. */
    private JsonNode startup(String name, String process) throws java.io.IOException {
        return new ObjectMapper().readTree(work.resolve(name).resolve("run.json").toFile()).get("processes").get(process)
                .get("startup");
    }

    private JsonNode run(String name, String warmup, String duration, String... more) throws Exception {
        Path out = work.resolve(name);
        List<String> args = new ArrayList<>(List.of("run", "trade", "--users", "300", "--quotes", "400",
                "--clients", "6", "--warmup", warmup, "--duration", duration, "--heap", "256m", "--out", out.toString()));
        args.addAll(List.of(more));
        try (PerflabProcess p = PerflabProcess.start(work, args.toArray(String[]::new))) {
            assertEquals(0, p.await(Duration.ofSeconds(180)), p.err() + p.out());
            assertTrue(p.out().contains("by kind"), p.out());
        }
        return new ObjectMapper().readTree(out.resolve("summary.json").toFile());
    }
}
