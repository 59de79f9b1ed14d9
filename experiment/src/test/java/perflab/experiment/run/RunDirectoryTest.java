package perflab.experiment.run;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RunDirectoryTest {
    private static final LocalDateTime NOW = LocalDateTime.of(2026, 11, 29, 3, 20, 5);

    @Test
    void aWorkloadGivenAsAFileNamesTheDirectoryByItsFileName(@TempDir Path root) throws Exception {
        Path dir = RunDirectory.create(root, "scenarios/trade.yaml", "mix", NOW);
        assertEquals(root.resolve("20261129-032005-trade-mix"), dir);
        assertTrue(Files.isDirectory(dir));
    }

    @Test
    void twoRunsInOneSecondGetTwoDirectories(@TempDir Path root) throws Exception {
        RunDirectory.create(root, "soap-echo", "echoStringDoc", NOW);
        Path second = RunDirectory.create(root, "soap-echo", "echoStringDoc", NOW);
        assertEquals(root.resolve("20261129-032005-soap-echo-echoStringDoc-2"), second);
    }

    @Test
    void nothingButLettersDigitsDotsDashesAndUnderscoresReachesAName() {
        assertEquals("trade", RunDirectory.nameOf("/home/ann/load/trade.YML"));
        assertEquals("my_shop", RunDirectory.nameOf("C:\\load\\my shop.yaml"));
        assertEquals("_", RunDirectory.nameOf(".."));
    }

    @Test
    void anOperationKeepsItsWholeNameMadeSafe(@TempDir Path root) throws Exception {
        assertEquals(root.resolve("20261129-032005-shop-GET__items"), RunDirectory.create(root, "shop.yaml", "GET /items", NOW));
    }
}
