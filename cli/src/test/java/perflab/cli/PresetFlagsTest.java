package perflab.cli;

import org.junit.jupiter.api.Test;
import perflab.core.config.RunConfig;
import picocli.CommandLine;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** --preset: a study's run rule as flags, under the flags the user gave. */
class PresetFlagsTest {
    private static String[] expand(String... args) {
        return PresetFlags.expand(args, WorkloadOptions.commandLine(new Perflab()));
    }

    private static RunConfig runConfig(String... args) {
        CommandLine cli = WorkloadOptions.commandLine(new Perflab());
        cli.parseArgs(expand(args));
        return ((RunCommand) cli.getSubcommands().get("run").getCommand()).toConfig();
    }

    @Test
    void thePresetsFlagsAreAddedUnlessGiven() {
        RunConfig bulk = runConfig("run", "hello", "--preset", "bulk");
        assertEquals(4, bulk.load().clients());
        assertEquals(2000, bulk.load().requests());

        RunConfig mine = runConfig("run", "hello", "--preset", "bulk", "--clients", "7");
        assertEquals(7, mine.load().clients(), "a given flag wins");
        assertEquals(2000, mine.load().requests());
    }

    @Test
    void aPresetMaySetTheWorkloadsOwnSettings() {
        RunConfig bulk = runConfig("run", "hello", "--preset", "bulk");
        assertEquals("65536", bulk.load().extra().get("size"));
        assertEquals("100", runConfig("run", "hello", "--preset", "bulk", "--size", "100").load().extra().get("size"));
        RunConfig smoke = runConfig("run", "hello", "--preset", "smoke");
        assertEquals(Duration.ofSeconds(2), smoke.load().duration());
        assertEquals(2, smoke.load().clients());
    }

    @Test
    void withoutAPresetOrWithABadCommandLineNothingIsAdded() {
        String[] plain = {"run", "hello", "--clients", "3"};
        assertArrayEquals(plain, expand(plain));
        String[] unknown = {"run", "hello", "--preset", "nope"};
        assertArrayEquals(unknown, expand(unknown), "the command itself refuses it, in one line");
        String[] bad = {"run", "hello", "--preset"};
        assertArrayEquals(bad, expand(bad));
        assertEquals(List.of("run", "notes", "--preset", "bulk"),
                List.of(expand("run", "notes", "--preset", "bulk")), "another workload's preset is not found");
    }
}
