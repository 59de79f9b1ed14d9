package perflab.experiment.run;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import perflab.core.config.RunConfig;
import perflab.core.workload.StackInfo;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SutCommandTest {
    @TempDir
    Path home;

    @Test
    void buildsTheSutJvmWithTheSettingsUnderTest() throws Exception {
        Path stackDir = Files.createDirectories(home.resolve("workloads/x/stack-a/target/stack"));
        Files.writeString(stackDir.resolve("a.jar"), "");
        StackInfo stack = new StackInfo("a", "test", "workloads/x/stack-a", "x.Main");
        RunConfig.Sut sut = new RunConfig.Sut(List.of("-XX:+UseTransparentHugePages"), "256m", "parallel", null, "0", 0,
                Map.of("server-threads", "50"));
        Path run = home.resolve("run");
        List<String> cmd = SutCommand.build(sut, stack, home, run);
        assertTrue(cmd.containsAll(List.of("taskset", "-c", "0")), cmd.toString());
        assertTrue(cmd.containsAll(List.of("-Xms256m", "-Xmx256m", "-XX:+UseParallelGC", "-XX:+UseTransparentHugePages")));
        assertTrue(cmd.contains(GcFlags.gcLogFlag(run.resolve("gc.log"))));
        // foreground compilation by default, before the user's flags so that theirs win
        assertTrue(cmd.indexOf("-XX:-BackgroundCompilation") >= 0
                && cmd.indexOf("-XX:-BackgroundCompilation") < cmd.indexOf("-XX:+UseTransparentHugePages"), cmd.toString());
        assertTrue(cmd.get(cmd.indexOf("-cp") + 1).endsWith("target/stack/*"));
        assertEquals("x.Main", cmd.get(cmd.indexOf("-cp") + 2));
        assertEquals("50", cmd.get(cmd.indexOf("--server-threads") + 1));
        assertEquals("0", cmd.get(cmd.indexOf("--port") + 1));
        assertTrue(cmd.get(cmd.indexOf("--jvm-report") + 1).endsWith("sut-jvm.json"));
    }

    @Test
    void jfrRecordsIntoTheRunDirectoryAndDumpsOnExit() throws Exception {
        Path stackDir = Files.createDirectories(home.resolve("workloads/x/stack-a/target/stack"));
        Files.writeString(stackDir.resolve("a.jar"), "");
        StackInfo stack = new StackInfo("a", "test", "workloads/x/stack-a", "x.Main");
        RunConfig.Sut sut = new RunConfig.Sut(List.of(), null, null, null, null, 0, Map.of());
        Path run = home.resolve("run");
        List<String> with = SutCommand.build(sut, stack, home, run, true);
        String flag = "-XX:StartFlightRecording=filename=" + run.resolve("sut.jfr").toAbsolutePath()
                + ",settings=profile,dumponexit=true";
        assertTrue(with.indexOf(flag) >= 0 && with.indexOf(flag) < with.indexOf("-cp"), with.toString());
        assertTrue(SutCommand.build(sut, stack, home, run).stream().noneMatch(a -> a.contains("FlightRecording")));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SutCommand.jfrFlag(Path.of("/tmp/a,b/sut.jfr")));
        assertTrue(e.getMessage().contains("comma"), e.getMessage());
    }

    @Test
    void anUnbuiltStackIsAClearError() {
        StackInfo stack = new StackInfo("a", "test", "workloads/x/none", "x.Main");
        RunConfig.Sut sut = new RunConfig.Sut(List.of(), null, null, null, null, 0, Map.of());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SutCommand.build(sut, stack, home, home));
        assertTrue(e.getMessage().contains("not built"), e.getMessage());
    }

    @Test
    void gcLogNeverRotates() {
        String flag = GcFlags.gcLogFlag(Path.of("/tmp/r/gc.log"));
        assertTrue(flag.startsWith("-Xlog:gc*,safepoint:file=/tmp/r/gc.log:"), flag);
        assertTrue(flag.endsWith("filecount=0"), flag);
    }

    @Test
    void runDirectoriesAreUnique() throws Exception {
        var now = java.time.LocalDateTime.of(2026, 11, 22, 4, 5, 6);
        Path a = RunDirectory.create(home, "soap-echo", "echoComplexTypeDoc", now);
        Path b = RunDirectory.create(home, "soap-echo", "echoComplexTypeDoc", now);
        assertEquals("20261122-040506-soap-echo-echoComplexTypeDoc", a.getFileName().toString());
        assertEquals("20261122-040506-soap-echo-echoComplexTypeDoc-2", b.getFileName().toString());
        Files.writeString(a.resolve("x"), "");
        assertThrows(IllegalArgumentException.class, () -> RunDirectory.explicit(a));
    }
}
