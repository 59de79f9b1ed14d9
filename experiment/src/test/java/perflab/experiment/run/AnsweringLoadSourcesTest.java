package perflab.experiment.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import perflab.core.config.RunConfig;
import perflab.core.workload.Companion;
import perflab.core.workload.ServerSide;
import perflab.core.load.LoadSource;
import perflab.loadsource.sipp.SippLoad;
import perflab.loadsource.sipp.SippCommand;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Load sources that only answer (SIPps), in a whole run (RunOrchestrator): started before the server side, each on its own
 * port, which the server side is told ({@code {phone.port}}); the workload's run files written before any of them
 * starts; stopped when the server side fails to start; every wrong reference refused in one line before anything
 * starts. The SUT is a stand-in: a script in place of the JDK's {@code java} (the stack's {@code --java-home}) that
 * writes down its arguments and whether the phone's port is bound, then fails to start as a SUT can.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class AnsweringLoadSourcesTest {
    @TempDir
    Path home;

    private Path javaHome;
    private Path sutSaw;

    @BeforeEach
    void standIns() throws IOException {
        assumeTrue(SippCommand.installedExecutable().isPresent(), "sipp is not installed (Debian package sip-tester)");
        Path stack = Files.createDirectories(home.resolve("workloads/x/stack-a/target/stack"));
        Files.writeString(stack.resolve("a.jar"), "");
        javaHome = home.resolve("jdk");
        sutSaw = home.resolve("sut-saw.txt");
        Path java = Files.createDirectories(javaHome.resolve("bin")).resolve("java");
        Files.writeString(java, """
                #!/bin/bash
                # the stand-in SUT: what it was given, whether the phone listens already, then a failed start
                echo "$@" > '%s'
                prev=; phone=
                for a in "$@"; do [ "$prev" = --phone ] && phone=$a; prev=$a; done
                hex=$(printf '%%04X' "${phone##*:}")
                if grep -q ":$hex " /proc/net/udp /proc/net/udp6; then echo bound; else echo unbound; fi >> '%s'
                echo "PERFLAB-FAILED the stand-in SUT fails on purpose"
                exit 3
                """.formatted(sutSaw, sutSaw));
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /** A workload of the given server side and load sources, whose run files are a SIPp users file. */
    private static final class StandIn extends StubWorkload {
        final List<Companion> companions;
        final Map<String, String> sutSettings;
        final List<SippLoad> loads;
        final List<String> hookSaw = new ArrayList<>();
        IOException failWith;

        StandIn(List<Companion> companions, Map<String, String> sutSettings, List<SippLoad> loads) {
            super("stand-in", "a SUT told where its phone answers");
            this.companions = companions;
            this.sutSettings = sutSettings;
            this.loads = loads;
        }

        @Override
        public ServerSide serverSide(Map<String, String> settings) {
            return new ServerSide(companions, sutSettings);
        }

        @Override
        public List<LoadSource> loadSources(Map<String, String> settings) {
            return List.copyOf(loads);
        }

        @Override
        public void writeRunFiles(Path runDir, Map<String, String> trafficSettings, long seed) throws IOException {
            boolean sippRunning = ProcessHandle.current().descendants()
                    .anyMatch(p -> p.info().command().orElse("").endsWith("sipp"));
            hookSaw.add("seed " + seed + (sippRunning ? ", SIPp running" : ", no SIPp yet"));
            if (failWith != null) {
                throw failWith;
            }
            Files.writeString(runDir.resolve("users.csv"), "SEQUENTIAL\nu0000000;phone;60000\n");
        }
    }

    private RunConfig config(String target) {
        RunConfig.Load load = new RunConfig.Load(1, 0, "constant", Duration.ofSeconds(5), 0, Duration.ofSeconds(1), 0,
                Duration.ZERO, "on", Duration.ofSeconds(5), 42, 0, "http1", 1);
        RunConfig.Sut sut = new RunConfig.Sut(List.of(), null, null, javaHome.toString(), null, 0, Map.of());
        return new RunConfig("stand-in", target == null ? "a" : null, "op", load, sut, target, null,
                home.resolve("run").toString(), true);
    }

    private static SippLoad phone() {
        // -inf: SIPp reads the file at its start and will not start without it
        return SippLoad.answers("phone", "uas", List.of("-inf", "users.csv"));
    }

    @Test
    void theAnswererStartsFirstOnAPortTheSutIsToldAndIsStoppedWhenTheSutFailsToStart() throws Exception {
        StandIn workload = new StandIn(List.of(), Map.of("phone", "127.0.0.1:{phone.port}"), List.of(phone()));
        RunFailure failure = assertThrows(RunFailure.class,
                () -> new RunOrchestrator(home, home, null).run(config(null), workload));
        assertTrue(failure.getMessage().contains("the stand-in SUT fails on purpose"), failure.getMessage());
        assertEquals(List.of("seed 42, no SIPp yet"), workload.hookSaw, "the run files come before any SIPp");

        Path runDir = home.resolve("run");
        assertTrue(Files.exists(runDir.resolve("users.csv")));
        JsonNode phone = new ObjectMapper().readTree(runDir.resolve("run.json").toFile()).get("processes").get("phone");
        int port = phone.get("ports").get("port").asInt();
        assertEquals(port, phone.get("ports").get("sip").asInt(), "run.json's first name for it stays");
        List<String> saw = Files.readAllLines(sutSaw);
        assertTrue(saw.get(0).contains("--phone 127.0.0.1:" + port), saw.toString());
        assertEquals("bound", saw.get(1), "the phone listens before the SUT starts");

        assertFalse(ProcessHandle.of(phone.get("pid").asLong()).map(ProcessHandle::isAlive).orElse(false),
                "no SIPp is left behind by a SUT that did not start");
        assertTrue(phone.has("exitStatus") && !phone.get("exitStatus").isNull(), phone.toString());
        // its own -timeout covers the server side's start (an hour per process at most) on top of the drive
        List<String> command = new ArrayList<>();
        phone.get("command").forEach(w -> command.add(w.asText()));
        assertEquals("users.csv", command.get(command.indexOf("-inf") + 1), command.toString());
        long timeout = Long.parseLong(command.get(command.indexOf("-timeout") + 1).replace("s", ""));
        assertEquals(RunPreflight.longestDrive(config(null).load()).plusHours(1).toSeconds(), timeout, command.toString());
    }

    @Test
    void aWorkloadThatCannotWriteItsRunFilesFailsInOneLineBeforeAnythingStarts() {
        StandIn workload = new StandIn(List.of(), Map.of("phone", "127.0.0.1:{phone.port}"), List.of(phone()));
        workload.failWith = new IOException("No space left on device");
        RunFailure failure = assertThrows(RunFailure.class,
                () -> new RunOrchestrator(home, home, null).run(config(null), workload));
        assertEquals("stand-in could not write its run files into " + home.resolve("run") + ": No space left on device",
                failure.getMessage());
        assertFalse(Files.exists(sutSaw), "no SUT started");
        assertFalse(Files.exists(home.resolve("run/phone.out")), "no SIPp started");
    }

    private String refusal(StandIn workload, String target) {
        return assertThrows(IllegalArgumentException.class, () -> RunPreflight.check(config(target), workload, home))
                .getMessage();
    }

    @Test
    void wrongReferencesAreRefusedInOneLineBeforeAnythingStarts() {
        assertEquals("process sut refers to {fone.port}, but no process named fone starts before it, and no load source "
                + "that answers has that name",
                refusal(new StandIn(List.of(), Map.of("phone", "127.0.0.1:{fone.port}"), List.of(phone())), null));
        assertEquals("process sut refers to {phone.sip}, but load source phone (sipp) has the ports {phone.port}",
                refusal(new StandIn(List.of(), Map.of("phone", "127.0.0.1:{phone.sip}"), List.of(phone())), null));
        assertEquals("process sut refers to {calls.port}, but load source calls (sipp) loads the SUT and starts after the "
                + "server side: only an answering source's port can be named",
                refusal(new StandIn(List.of(), Map.of("peer", "127.0.0.1:{calls.port}"),
                        List.of(SippLoad.calls("calls", "uac", "127.0.0.1:{sut.sip}", 5, 0, List.of()))), null));
        Companion store = Companion.program("phone", List.of("/bin/true"), Companion.Start.BEFORE_SUT, null);
        assertEquals("load source phone (sipp) has the name of a process of the server side: the two would share run.json's and "
                + "summary.json's processes.phone; rename one",
                refusal(new StandIn(List.of(store), Map.of(), List.of(phone())), null));
        Companion relay = Companion.program("relay", List.of("/bin/relay", "--to", "127.0.0.1:{phone.port}"),
                Companion.Start.AFTER_SUT, null);
        assertEquals("the server side's companion relay names {phone.port}, the port of load source phone: only perflab "
                + "run starts the server side with its load sources",
                refusal(new StandIn(List.of(relay), Map.of(), List.of(phone())), "http://127.0.0.1:9"));
        assertEquals("the server side's settings name {phone.port}, the port of load source phone: only perflab run "
                + "starts the server side with its load sources",
                refusal(new StandIn(List.of(), Map.of("phone", "127.0.0.1:{phone.port}"), List.of(phone())),
                        "http://127.0.0.1:9"));

        // what is fine: a companion after the SUT naming the phone; with --target, answerers nobody is told of
        RunPreflight.check(config(null), new StandIn(List.of(relay), Map.of("phone", "127.0.0.1:{phone.port}"),
                List.of(phone())), home);
        RunPreflight.check(config("http://127.0.0.1:9"), new StandIn(List.of(), Map.of(), List.of(phone())), home);
    }
}
