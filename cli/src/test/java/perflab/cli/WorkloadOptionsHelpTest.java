package perflab.cli;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Workload settings' help goes into `perflab run --help` as written: a help text with a percent sign (the notes
 * example's add-share, "Share of requests that add a note, %") is not taken for a format string, which picocli would
 * complain about on stderr.
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
        assertTrue(usage.replaceAll("\\s+", " ").contains("Share of requests that add a note, %"), usage);
    }

    @Test
    void everyCommandsHelpIsWrittenWithoutAComplaint() {
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        StringBuilder usages = new StringBuilder();
        try {
            System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
            picocli.CommandLine line = WorkloadOptions.commandLine(new Perflab());
            usages.append(line.getUsageMessage());
            line.getSubcommands().values().forEach(c -> usages.append(c.getUsageMessage()));
        } finally {
            System.setErr(err);
        }
        // a lone % in a description is a format string to picocli: it warns on stderr and prints the raw text
        assertEquals("", captured.toString(StandardCharsets.UTF_8), "nothing on stderr");
        String text = usages.toString().replaceAll("\\s+", " ");
        assertTrue(text.contains("95 % interval of throughput"), "tune's description as written");
        assertTrue(text.contains("the change in %,"), "compare's description as written");
    }
}
