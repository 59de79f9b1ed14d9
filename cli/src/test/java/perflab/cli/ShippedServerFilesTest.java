package perflab.cli;

import org.junit.jupiter.api.Test;
import perflab.core.server.ServerFile;
import perflab.core.workload.StackInfo;
import perflab.core.workload.Workload;
import perflab.core.workload.WorkloadSetting;
import perflab.core.workload.Workloads;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * Every server file shipped in servers/ reads, and one that declares a workload's stack (trade's liberty) takes every
 * server setting that workload always gives its stacks: a setting it lacked would refuse every run of the stack.
 */
class ShippedServerFilesTest {
    private static final Path HOME = Path.of(System.getProperty("basedir", ".")).resolve("..").normalize();

    @Test
    void everyShippedServerFileReadsAndAStacksFileTakesItsWorkloadsSettings() throws Exception {
        List<Path> files;
        try (Stream<Path> list = Files.list(HOME.resolve("servers"))) {
            files = list.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
        }
        assertFalse(files.isEmpty(), "no server files in " + HOME.resolve("servers"));
        int stackFiles = 0;
        for (Path file : files) {
            ServerFile server = ServerFileReader.read(file);
            assertNotNull(server.description(), file.toString());
            if (server.workload() == null) {
                continue;
            }
            Workload workload = Workloads.named(server.workload());
            for (StackInfo stack : workload.stacks()) {
                if (stack.serverFile() == null || !HOME.resolve(stack.serverFile()).normalize().equals(file.normalize())) {
                    continue;
                }
                stackFiles++;
                for (WorkloadSetting s : workload.settings()) {
                    if (s.use() != WorkloadSetting.Use.TRAFFIC && s.defaultValue() != null) {
                        assertNotNull(server.setting(s.name()), file + " declares stack " + stack.name() + " of "
                                + workload.name() + " but not its setting " + s.name());
                    }
                }
            }
        }
        assertEquals(1, stackFiles, "trade's liberty is the one stack a shipped server file declares");
    }
}
