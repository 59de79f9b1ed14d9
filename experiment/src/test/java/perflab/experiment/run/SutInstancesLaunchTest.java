package perflab.experiment.run;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import perflab.core.config.RunConfig;
import perflab.core.workload.Companion;
import perflab.core.workload.ServerSide;
import perflab.core.workload.SutInstances;
import perflab.core.workload.Workload;
import perflab.core.process.LocalSockets;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A SUT run as several instances is laid out as that many SUT processes with their own files and settings, and a
 * proxy program in front of them is started on ports perflab chose and is ready only once it has bound them.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SutInstancesLaunchTest {
    @TempDir
    Path home;

    /** A workload that runs as several instances behind a proxy that names each instance's port. */
    private static Workload clustered() {
        return new StubWorkload("cluster-test", "instances behind a proxy") {
            @Override
            public ServerSide serverSide(Map<String, String> settings, int instances) {
                List<String> proxy = new ArrayList<>(List.of("proxy/run.sh", "{proxy.port}", "{proxy.sip}"));
                SutInstances.names(instances).forEach(n -> proxy.add("{" + n + ".port}"));
                List<Map<String, String>> own = new ArrayList<>();
                for (int i = 0; i < instances; i++) {
                    own.add(Map.of("index", Integer.toString(i)));
                }
                return new ServerSide(List.of(Companion.program("proxy", proxy, Companion.Start.AFTER_SUT, null)
                        .listening("port", "sip")), Map.of("mode", "cluster"), own, "proxy");
            }
        };
    }

    private RunConfig.Sut sut(int instances) throws Exception {
        Path stack = Files.createDirectories(home.resolve("workloads/x/stack-a/target/stack"));
        Files.writeString(stack.resolve("a.jar"), "");
        return new RunConfig.Sut(List.of(), "64m", null, null, null, 0, Map.of(), instances);
    }

    @Test
    void eachInstanceIsAStepWithItsOwnFilesAndSettingsAndTheProxyIsTheEntry() throws Exception {
        Path run = home.resolve("run");
        ServerLaunch launch = ServerLaunch.plan(clustered(), "a", sut(3), home, run, true);
        assertEquals(List.of("sut-0", "sut-1", "sut-2"), launch.instances());
        assertEquals("proxy", launch.entry());
        assertEquals(List.of("sut-0", "sut-1", "sut-2", "proxy"), launch.steps().stream().map(ServerLaunch.Step::name).toList());
        String second = String.join(" ", launch.steps().get(1).command());
        assertTrue(second.contains(run.resolve("sut-1-gc.log").toString()) && second.contains("sut-1.jfr")
                && second.contains(run.resolve("sut-1-jvm.json").toAbsolutePath().toString()), second);
        assertTrue(second.contains("--index 1") && second.contains("--mode cluster"), second);
        assertEquals(List.of("port", "sip"), launch.steps().get(3).listens());
        // the proxy, a path inside perflab, is run from perflab's home
        assertTrue(launch.steps().get(3).command().contains(home.resolve("proxy/run.sh").toAbsolutePath().toString()),
                launch.steps().get(3).command().toString());
        assertTrue(launch.steps().get(3).command().containsAll(List.of("{proxy.port}", "{sut-2.port}")),
                "resolved as the processes start: " + launch.steps().get(3).command());
        // --restart-proxy-at restarts the companions started after the instances: the proxy in front of them
        assertEquals(List.of("proxy"), launch.proxies());
        assertEquals(List.of(), ServerLaunch.plan(paired(List.of("replica")), "a", sut(2), home, run, false).proxies());
    }

    /** Pairs of instances, each naming its partner's port, which perflab chooses before either starts. */
    private static Workload paired(List<String> instanceListens) {
        return new StubWorkload("pairs-test", "instances in pairs") {
            @Override
            public ServerSide serverSide(Map<String, String> settings, int instances) {
                List<Map<String, String>> own = new ArrayList<>();
                for (int i = 0; i < instances; i++) {
                    own.add(Map.of("partner-port", "{" + SutInstances.name(i ^ 1, instances) + ".replica}"));
                }
                return new ServerSide(List.of(), Map.of(), own, "sut-0", instanceListens);
            }
        };
    }

    @Test
    void anInstanceMayNameAPortPerflabChoosesForALaterOne() throws Exception {
        ServerLaunch launch = ServerLaunch.plan(paired(List.of("replica")), "a", sut(2), home, home.resolve("run"), false);
        assertEquals(List.of("replica"), launch.steps().get(0).listens());
        assertTrue(launch.steps().get(0).command().contains("{sut-1.replica}"), launch.steps().get(0).command().toString());
        // without perflab choosing it, sut-0 names the port of an instance that has not started
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ServerLaunch.plan(paired(List.of()), "a", sut(2), home, home.resolve("run"), false));
        assertTrue(e.getMessage().contains("{sut-1.replica}") && e.getMessage().contains("no process named sut-1 starts "
                + "before it"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new ServerSide(List.of(), Map.of(), List.of(), "sut-0",
                List.of("port")), "an instance announces its own port");
    }

    @Test
    void aWorkloadThatRunsAsOneRefusesInstancesAndOneInstanceIsTheSut() throws Exception {
        Workload single = new StubWorkload("single", "one SUT") {
        };
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ServerLaunch.plan(single, "a", sut(2), home, home.resolve("run"), false));
        assertTrue(e.getMessage().startsWith("--instances 2: single runs as one SUT instance"), e.getMessage());
        ServerLaunch one = ServerLaunch.plan(clustered(), "a", sut(1), home, home.resolve("run"), false);
        assertEquals(List.of("sut"), one.instances());
        assertTrue(String.join(" ", one.sut().command()).contains(home.resolve("run").resolve("gc.log").toString()));
    }

    @Test
    void aProgramOnChosenPortsIsReadyOnlyOnceItHoldsThem() throws Exception {
        Path run = Files.createDirectories(home.resolve("run"));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ServerLaunch.Step proxy = new ServerLaunch.Step("proxy", List.of(java, "-cp", System.getProperty("java.class.path"),
                PortHolder.class.getName(), "{proxy.http}", "{proxy.sip}"), null, false,
                Companion.Sampling.PROCESS, null, Map.of(), List.of("http", "sip"));
        try (ServerProcesses server = ServerProcesses.start(new ServerLaunch(List.of(proxy), List.of(), "proxy"), run,
                Duration.ofSeconds(30), p -> { })) {
            ManagedProcess p = server.entry();
            int http = p.ports().get("http");
            int sip = p.ports().get("sip");
            assertTrue(http != sip, p.ports().toString());
            // ready means bound: both sockets are there the moment start returns, 300 ms after the program began
            assertTrue(LocalSockets.bound(p.pid(), http) && LocalSockets.bound(p.pid(), sip), p.ports().toString());
            assertTrue(server.commands().get("proxy").containsAll(List.of(Integer.toString(http), Integer.toString(sip))),
                    server.commands().toString());
        }
    }

    /** A SUT instance on a port perflab chose: ready once it said READY and holds that port; its ports are both. */
    @Test
    void anInstanceOnAChosenPortHasItAndTheOnesItAnnounced() throws Exception {
        Path run = Files.createDirectories(home.resolve("run"));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ServerLaunch.Step instance = new ServerLaunch.Step("sut-0", List.of(java, "-cp", System.getProperty("java.class.path"),
                PortHolder.class.getName(), PortHolder.ANNOUNCE, "{sut-0.replica}"), perflab.core.sut.SutBootstrap.READY,
                true, Companion.Sampling.PROCESS, null, Map.of(), List.of("replica"));
        try (ServerProcesses server = ServerProcesses.start(new ServerLaunch(List.of(instance), List.of("sut-0"), "sut-0"),
                run, Duration.ofSeconds(30), p -> { })) {
            ManagedProcess p = server.entry();
            assertEquals(Set.of("port", "replica"), p.ports().keySet(), p.ports().toString());
            assertTrue(LocalSockets.bound(p.pid(), p.ports().get("replica")) && LocalSockets.bound(p.pid(), p.port()),
                    p.ports().toString());
        }
    }

    @Test
    void aProgramThatExitsBeforeBindingFailsTheStartInOneLine() throws Exception {
        Path run = Files.createDirectories(home.resolve("run"));
        ServerLaunch.Step proxy = new ServerLaunch.Step("proxy", List.of("/bin/false", "{proxy.port}"), null, false,
                Companion.Sampling.PROCESS, null, Map.of(), List.of("port"));
        RunFailure f = assertThrows(RunFailure.class, () -> ServerProcesses.start(
                new ServerLaunch(List.of(proxy), List.of(), "proxy"), run, Duration.ofSeconds(30), p -> { }));
        assertTrue(f.getMessage().startsWith("companion proxy failed to start: it exited"), f.getMessage());
    }
}
