package perflab.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import perflab.core.config.ExperimentSpec;
import perflab.core.config.RunConfig;
import perflab.core.workload.Workloads;
import perflab.experiment.study.ExperimentPlan;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A server file's own settings as dimensions of perflab tune: --set NAME=V1,V2, set.NAME in experiment files. */
class ServerFileTuneTest {
    @TempDir
    Path dir;

    private Path serverFile() throws Exception {
        Path file = dir.resolve("app.yaml");
        Files.writeString(file, """
                command: [app, --port, "{port}", --threads, "{threads}", "{jvm}"]
                ready: {tcp: port}
                settings:
                  threads: {type: integer, default: 16, min: 4, max: 400, help: request threads}
                """);
        return file;
    }

    @Test
    void aCommaListOnSetMakesADimensionOfTheServersSetting() throws Exception {
        Path file = serverFile();
        ExperimentSpec spec = TuneCommand.fromFlags("hello", List.of("--server", file.toString(), "--set", "threads=8,64",
                "--heap", "64m,128m", "--duration", "5s"));
        assertEquals(Map.of("set.threads", List.of("8", "64"), "heap", List.of("64m", "128m")), spec.matrix());
        ExperimentPlan plan = TuneCommand.plan("t", spec, Workloads.named("hello"));
        assertEquals(4, plan.configurations().size());
        assertEquals("app", plan.stack());
        RunConfig last = plan.configurations().get(3).config();
        assertEquals("64", last.sut().settings().get("threads"));
        assertEquals("128m", last.sut().heap());
        assertEquals(file.toString(), last.sut().server().source());
    }

    @Test
    void aSettingTheServerFileHasNotIsRefusedBeforeAnythingRuns() throws Exception {
        Path file = serverFile();
        ExperimentSpec spec = TuneCommand.fromFlags("hello", List.of("--server", file.toString(), "--set", "thread=8,64"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TuneCommand.plan("t", spec, Workloads.named("hello")));
        assertTrue(e.getMessage().contains("app has no setting 'thread'; its settings: threads"), e.getMessage());
        IllegalArgumentException noValue = assertThrows(IllegalArgumentException.class, () ->
                TuneCommand.fromFlags("hello", List.of("--server", file.toString(), "--set", "threads")));
        assertEquals("--set threads: give NAME=VALUE or NAME=V1,V2", noValue.getMessage());
        IllegalArgumentException belowMin = assertThrows(IllegalArgumentException.class, () -> TuneCommand.plan("t",
                TuneCommand.fromFlags("hello", List.of("--server", file.toString(), "--set", "threads=2,8")),
                Workloads.named("hello")));
        assertTrue(belowMin.getMessage().contains("configuration 1"), belowMin.getMessage());
    }
}
