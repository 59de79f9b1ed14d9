package perflab.cli;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Workload settings' help goes into `perflab run --help` as written: a help text with a percent sign (trade's mix,
 * "in % of requests") is not taken for a format string, which picocli would complain about on stderr.
 */
class WorkloadOptionsHelpTest {
    @Test
    void percentSignsInAWorkloadsHelpAreShownAsTheyAre() {
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        String usage;
        try {
            System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
            usage = WorkloadOptions.commandLine(new Perflab()).getSubcommands().get("run").getUsageMessage();
        } finally {
            System.setErr(err);
        }
        assertEquals("", captured.toString(StandardCharsets.UTF_8), "nothing on stderr");
        assertTrue(usage.replaceAll("\\s+", " ").contains("in % of requests"), usage);
    }
}
