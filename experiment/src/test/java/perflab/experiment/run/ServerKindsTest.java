package perflab.experiment.run;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import perflab.core.config.RunConfig;
import perflab.core.server.ServerKinds;
import perflab.core.server.ServerPlan;
import perflab.core.workload.StackInfo;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A stack is started by the kind of server it names, found as a plugin; the run reads its files where it put them. */
class ServerKindsTest {
    @TempDir
    Path home;

    private final StubWorkload workload = new StubWorkload("x", "a stack of each kind") {
        @Override
        public List<StackInfo> stacks() {
            return List.of(new StackInfo("a", "perflab's own", "workloads/x/stack-a", "x.Main"),
                    new StackInfo("b", "of a kind no plugin starts", "workloads/x/stack-b", "x.Main", "tomcat-7"));
        }
    };

    private RunConfig.Sut sut() {
        return new RunConfig.Sut(List.of(), null, null, null, null, 0, Map.of(), 1, null);
    }

    @Test
    void perflabsOwnStacksAreOfTheStackKindAndTheRunFindsTheirFilesInThePlan() throws Exception {
        Files.createDirectories(home.resolve("workloads/x/stack-a/target/stack"));
        Files.writeString(home.resolve("workloads/x/stack-a/target/stack/a.jar"), "");
        assertEquals("stack", ServerKinds.of(workload.stack("a")).name());
        ServerLaunch launch = ServerLaunch.plan(workload, "a", sut(), home, home.resolve("run"), true);
        ServerPlan plan = launch.sutPlan("sut");
        assertEquals("gc.log", plan.gcLog());
        assertEquals("sut-jvm.json", plan.jvmReport());
        assertEquals("sut.jfr", plan.jfr());
        assertTrue(plan.jvm());
        assertEquals(plan.command(), launch.sut().command(), "the step starts what the kind laid out");
        assertNull(ServerLaunch.plan(workload, "a", sut(), home, home.resolve("run"), false).sutPlan("sut").jfr());
        assertNull(launch.sutPlan("proxy"), "no SUT process of that name");
    }

    @Test
    void aStackOfAKindNoPluginStartsIsRefusedInOneLine() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ServerLaunch.plan(workload, "b", sut(), home, home.resolve("run"), false));
        assertEquals("stack b is of kind 'tomcat-7', which no plugin here starts; the kinds here: stack", e.getMessage());
    }
}
