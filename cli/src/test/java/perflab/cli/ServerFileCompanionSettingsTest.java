package perflab.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import perflab.core.config.RunConfig;
import picocli.CommandLine;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A workload's settings beside a server file: those of its own stacks are refused in one line (the file's server
 * would never read them), those of a companion the file asks for reach that companion (trade's --db-outage).
 */
class ServerFileCompanionSettingsTest {
    private static final Path WITH_POSTGRES = Path.of("..", "servers", "trade-lean-postgresql.yaml");

    @TempDir
    Path dir;

    private static RunConfig runConfig(String... args) {
        CommandLine cli = WorkloadOptions.commandLine(new Perflab());
        cli.parseArgs(args);
        return ((RunCommand) cli.getSubcommands().get("run").getCommand()).toConfig();
    }

    @Test
    void aCompanionsSettingReachesTheCompanionTheFileAsksFor() {
        RunConfig config = runConfig("run", "trade", "--server", WITH_POSTGRES.toString(), "--db-outage", "20s+5s",
                "--db-cache", "off");
        assertEquals("20000ms+5000ms", config.sut().settings().get("db-outage"));
        assertEquals("off", config.sut().settings().get("db-cache"));
    }

    @Test
    void aStacksOwnSettingIsRefusedAndSoIsACompanionsTheFileDoesNotAskFor() throws Exception {
        IllegalArgumentException db = assertThrows(IllegalArgumentException.class,
                () -> runConfig("run", "trade", "--server", WITH_POSTGRES.toString(), "--db", "postgresql"));
        assertEquals("--db is a setting of trade's own stacks, which trade-lean-postgresql is not; give the server's own "
                + "settings with --set (threads, pool, data-access, users, quotes)", db.getMessage());
        IllegalArgumentException set = assertThrows(IllegalArgumentException.class,
                () -> runConfig("run", "trade", "--server", WITH_POSTGRES.toString(), "--set", "users=300"));
        assertEquals("--set users=300: users is trade's own setting, which trade-lean-postgresql takes from its flag: "
                + "give --users 300", set.getMessage(), "only the flag reaches the traffic too");
        assertEquals("300", runConfig("run", "trade", "--server", WITH_POSTGRES.toString(), "--users", "300").sut()
                .settings().get("users"));
        Path alone = dir.resolve("alone.yaml");
        Files.writeString(alone, "command: [app, --port, \"{port}\"]\nready: {tcp: port}\njvm: none\n");
        IllegalArgumentException outage = assertThrows(IllegalArgumentException.class,
                () -> runConfig("run", "trade", "--server", alone.toString(), "--db-outage", "20s+5s"));
        assertEquals("--db-outage is a setting of trade's own stacks, which alone is not; give the server's own "
                + "settings with --set", outage.getMessage());
    }
}
