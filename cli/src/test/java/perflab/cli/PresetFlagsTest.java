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
        RunConfig trade2 = runConfig("run", "trade", "--preset", "trade2");
        assertEquals(100, trade2.load().clients());
        assertEquals(500_000, trade2.load().requests());

        RunConfig mine = runConfig("run", "trade", "--preset", "trade2", "--clients", "7");
        assertEquals(7, mine.load().clients(), "a given flag wins");
        assertEquals(500_000, mine.load().requests());
    }

    @Test
    void aPresetMaySetTheWorkloadsOwnSettings() {
        RunConfig jmeter = runConfig("run", "trade", "--preset", "daytrader8");
        assertEquals(50, jmeter.load().clients());
        assertEquals(Duration.ofSeconds(180), jmeter.load().duration());
        assertEquals("jmeter", jmeter.load().extra().get("mix"));
        assertEquals("standard", runConfig("run", "trade", "--preset", "daytrader8", "--mix", "standard")
                .load().extra().get("mix"));
    }

    @Test
    void withoutAPresetOrWithABadCommandLineNothingIsAdded() {
        String[] plain = {"run", "trade", "--clients", "3"};
        assertArrayEquals(plain, expand(plain));
        String[] unknown = {"run", "trade", "--preset", "nope"};
        assertArrayEquals(unknown, expand(unknown), "the command itself refuses it, in one line");
        String[] bad = {"run", "trade", "--preset"};
        assertArrayEquals(bad, expand(bad));
        assertEquals(List.of("run", "soap-echo", "--preset", "trade2"),
                List.of(expand("run", "soap-echo", "--preset", "trade2")), "another workload's preset is not found");
    }
}
