package perflab.trade.liberty;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import perflab.core.sut.SutArgs;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PrepareDatabaseTest {
    @TempDir
    Path work;

    @Test
    void anH2RunGetsItsRestoredFileAndAQuoteMapOfItsCacheSize() throws Exception {
        Path written = work.resolve("server/trade-db.xml");
        Files.createDirectories(written.getParent());
        Path options = Files.writeString(work.resolve("jvm.options"), "-Xmx256m\n");
        PrepareDatabase.run(SutArgs.parse(new String[]{"--db", "h2", "--db-url", "none", "--users", "2", "--quotes",
                "3", "--statement-cache", "50", "--cache", "2000", "--quote-cache", "distributed-map", "--work-dir",
                work.resolve("run-h2").toString(), "--population-cache", work.resolve("cache").toString(),
                "--jvm-options", options.toString(), "--write", written.toString()}, PrepareDatabase.NAMES));
        String config = Files.readString(written);
        assertTrue(config.contains("<jdbcDriver libraryRef=\"h2\"/>"), config);
        assertTrue(config.contains("<properties.h2 URL=\"jdbc:h2:") && config.contains(work.resolve("run-h2").toString()),
                "the run's own copy of the populated database: " + config);
        assertTrue(config.contains("jndiName=\"services/cache/tradeQuotes\" memorySizeInEntries=\"2000\""), config);
    }

    @Test
    void theQuoteMapIsWrittenOnlyWhenTheApplicationUsesIt() {
        assertEquals("", PrepareDatabase.quoteMap("caffeine", 2000));
        assertEquals("", PrepareDatabase.quoteMap("distributed-map", 0), "--cache 0: no cache at all");
        assertTrue(PrepareDatabase.quoteMap("distributed-map", 100).contains("memorySizeInEntries=\"100\""));
    }

    @Test
    void aMapSmallerThanLibertyTakesOrAnUnknownPlaceIsRefusedInOneLine() {
        IllegalArgumentException small = assertThrows(IllegalArgumentException.class,
                () -> PrepareDatabase.quoteMap("distributed-map", 99));
        assertTrue(small.getMessage().contains("100 entries at least") && !small.getMessage().contains("\n"),
                small.getMessage());
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> PrepareDatabase.quoteMap("memcached", 2000));
        assertTrue(unknown.getMessage().startsWith("--quote-cache must be"), unknown.getMessage());
    }
}
