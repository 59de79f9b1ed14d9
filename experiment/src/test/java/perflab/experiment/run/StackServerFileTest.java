package perflab.experiment.run;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import perflab.core.config.RunConfig;
import perflab.core.server.ServerFile;
import perflab.core.workload.ServerSide;
import perflab.core.workload.StackInfo;
import perflab.core.workload.Workload;
import perflab.core.workload.WorkloadSetting;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A workload's stack that a server file declares: told apart from --server's file by the file itself (not its
 * name), and refused in one line when the workload gives it a setting the file does not declare.
 */
class StackServerFileTest {
    private static final WorkloadSetting POOL = WorkloadSetting.integer("pool", 10, 1, 100, "connections").forServer();

    @TempDir
    Path home;

    /** Stack {@code a} of perflab's own and stack {@code app}, declared by servers/app.yaml; setting --pool. */
    private static Workload workload() {
        return new StubWorkload("file-stack-test", "a stack a server file declares") {
            @Override
            public List<StackInfo> stacks() {
                return List.of(new StackInfo("a", "test", "workloads/x/stack-a", "x.Main"),
                        StackInfo.ofServerFile("app", "test", "workloads/x/app", "servers/app.yaml"));
            }

            @Override
            public List<WorkloadSetting> settings() {
                return List.of(POOL);
            }
        };
    }

    private static ServerFile file(String source, List<WorkloadSetting> settings) {
        return new ServerFile("app", source, "text", null, "", List.of("app", "{port}"), null, Map.of(), List.of(),
                Map.of(), List.of("port"), null, new ServerFile.Ready(ServerFile.Ready.Kind.TCP, "port", 200, 399,
                Duration.ofSeconds(5)), new ServerFile.Stop("TERM", List.of(), Duration.ofSeconds(5)),
                new ServerFile.Jvm(ServerFile.Jvm.Mode.NONE, null), settings, List.of());
    }

    private static RunConfig.Sut sut(ServerFile f, Map<String, String> settings) {
        return new RunConfig.Sut(List.of(), null, null, null, null, 0, settings).withServer(f);
    }

    @Test
    void theStacksOwnFileIsToldApartFromAServerFileOfTheSameName() {
        ServerFile own = file(home.resolve("servers/../servers/app.yaml").toString(), List.of(POOL));
        assertTrue(ServerLaunch.isStacksFile(workload(), "app", sut(own, Map.of()), home));
        ServerFile elsewhere = file(home.resolve("mine/app.yaml").toString(), List.of(POOL));
        assertFalse(ServerLaunch.isStacksFile(workload(), "app", sut(elsewhere, Map.of()), home), "--server's file");
        assertFalse(ServerLaunch.isStacksFile(workload(), "a", sut(own, Map.of()), home), "a stack of a main class");
        assertFalse(ServerLaunch.isStacksFile(workload(), "app", new RunConfig.Sut(List.of(), null, null, null, null, 0,
                Map.of()), home), "no file read");
    }

    @Test
    void everySettingTheWorkloadGivesMustBeDeclaredByTheFile() {
        Workload w = workload();
        StackInfo app = w.stack("app");
        ServerSide side = ServerSide.sutOnly(Map.of("pool", "10"));
        ServerLaunch.checkStackFile(app, sut(file("servers/app.yaml", List.of(POOL)), Map.of()), side, w);
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class, () -> ServerLaunch.checkStackFile(
                app, sut(file("servers/app.yaml", List.of()), Map.of()), side, w));
        assertEquals("stack app (servers/app.yaml) takes no setting pool, which file-stack-test gives its server: "
                + "declare it in the file", missing.getMessage());
        // perflab's own flags given reach it only as settings the file declares under their names
        IllegalArgumentException common = assertThrows(IllegalArgumentException.class, () -> ServerLaunch.checkStackFile(
                app, sut(file("servers/app.yaml", List.of(POOL)), Map.of("server-threads", "8")), side, w));
        assertTrue(common.getMessage().startsWith("stack app (servers/app.yaml) takes no setting server-threads"),
                common.getMessage());
        ServerLaunch.checkStackFile(w.stack("a"), new RunConfig.Sut(List.of(), null, null, null, null, 0, Map.of()),
                side, w); // a stack of a main class takes what it takes
    }
}
