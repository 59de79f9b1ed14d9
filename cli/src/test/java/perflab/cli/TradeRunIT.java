package perflab.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
        JsonNode first = run("first");
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

        JsonNode second = run("second");
        assertEquals(0, second.get("errors").get("total").asLong(), second.get("errors").toString());
        String restored = Files.readString(work.resolve("second/sut.out"));
        assertFalse(restored.contains("populated in"), "the second run restores the first run's population: " + restored);
        assertTrue(restored.contains("trade database: restored from"), restored);
    }

    private JsonNode run(String name) throws Exception {
        Path out = work.resolve(name);
        try (PerflabProcess p = PerflabProcess.start(work, "run", "trade", "--users", "300", "--quotes", "400",
                "--clients", "6", "--warmup", "4s", "--duration", "8s", "--heap", "256m", "--out", out.toString())) {
            assertEquals(0, p.await(Duration.ofSeconds(180)), p.err() + p.out());
            assertTrue(p.out().contains("by kind"), p.out());
        }
        return new ObjectMapper().readTree(out.resolve("summary.json").toFile());
    }
}
