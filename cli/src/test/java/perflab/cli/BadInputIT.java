package perflab.cli;

import perflab.testsupport.PerflabProcess;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every kind of bad input gets one line naming the problem, a non-zero exit, and no stack trace. */
class BadInputIT {
    /** hello, the workload the platform's tests run, and notes, which runs as several instances behind a proxy. */
    private static final String TEST_WORKLOADS = PerflabProcess.testWorkload("hello") + ":" + PerflabProcess.testWorkload("notes");

    @TempDir
    Path work;

    static Stream<Arguments> badInput() {
        return Stream.of(
                Arguments.of(List.of("run", "nosuch"), "unknown workload 'nosuch'", "hello"),
                Arguments.of(List.of("run", "hello", "--operation", "echoNothing"), "unknown operation 'echoNothing'", "greet"),
                Arguments.of(List.of("run", "hello", "--stack", "websphere"), "unknown stack 'websphere'", "jetty"),
                Arguments.of(List.of("run", "hello", "--duration", "ten"), "--duration: 'ten' is not a duration", "30s"),
                Arguments.of(List.of("run", "hello", "--heap", "lots"), "--heap: 'lots' is not a size", "512m"),
                Arguments.of(List.of("run", "hello", "--rate", "-5"), "--rate: '-5' is not a rate", "1000"),
                Arguments.of(List.of("run", "hello", "--gc", "cms"), "--gc: unknown collector 'cms'", "shenandoah"),
                Arguments.of(List.of("run", "hello", "--profile", "heap"), "--profile: 'heap' is not one of", "wall"),
                Arguments.of(List.of("run", "hello", "--warmup", "auto:soon"), "--warmup auto:MAX", "auto"),
                Arguments.of(List.of("run", "hello", "--warmup", "automatic"), "--warmup: 'automatic' is not auto", "auto:3m"),
                Arguments.of(List.of("run", "hello", "--keepalive", "maybe"), "--keepalive: 'maybe'", "on, off"),
                Arguments.of(List.of("run", "hello", "--clients", "0"), "--clients must be within", "1..100000"),
                Arguments.of(List.of("run", "hello", "--clients", "many"), "--clients", "many"),
                Arguments.of(List.of("run", "hello", "--clients", "1,8,8"), "--clients: 8 is given twice", "8"),
                Arguments.of(List.of("run", "hello", "--cpus", "0", "--driver-cpus", "0"), "overlaps --cpus", "disjoint"),
                Arguments.of(List.of("run", "hello", "--java-home", "/nonexistent"), "--java-home", "bin/java"),
                Arguments.of(List.of("run", "hello", "--nosuchflag"), "Unknown option", "--help"),
                Arguments.of(List.of("run", "notes", "--kill-instance-at", "5s"), "--kill-instance-at kills one of",
                        "--instances 2"),
                Arguments.of(List.of("run", "notes", "--instances", "2", "--kill-instance-at", "soon"),
                        "--kill-instance-at: 'soon'", "duration"),
                Arguments.of(List.of("run", "notes", "--instances", "2", "--kill-instance-at", "randomly"),
                        "--kill-instance-at: 'randomly' is neither a duration", "'random'"),
                Arguments.of(List.of("run", "notes", "--instances", "2", "--duration", "10s", "--kill-instance-at",
                        "10s"), "--kill-instance-at 10s is not inside the measured window", "--duration"),
                Arguments.of(List.of("run", "notes", "--instances", "2", "--restart-instance-at", "5s"),
                        "--restart-instance-at starts the killed instance again", "--kill-instance-at"),
                Arguments.of(List.of("run", "notes", "--instances", "2", "--kill-instance-at", "8s",
                        "--restart-instance-at", "6s"), "--restart-instance-at starts", "a later time than 8.0 s"),
                Arguments.of(List.of("run", "notes", "--restart-proxy-at", "5s"), "--restart-proxy-at restarts the",
                        "--instances 2"),
                Arguments.of(List.of("drive", "hello", "--target", "ftp://x"), "--target", "http://"),
                Arguments.of(List.of("run", "hello", "--agents", "local:0"), "--agents local:0: local:N needs N", "1 to 16"),
                Arguments.of(List.of("run", "hello", "--agents", "many"), "--agents 'many' is not", "local:N"),
                Arguments.of(List.of("run", "hello", "--driver-cpus", "0/1"), "lists separated by '/' are one per agent",
                        "--agents local:2"),
                Arguments.of(List.of("run", "hello", "--agents", "local:4", "--clients", "2"), "--clients 2 is fewer than",
                        "a client at least"),
                Arguments.of(List.of("gc", "no-such-gc.log"), "no such file: no-such-gc.log", "no-such-gc.log"),
                Arguments.of(List.of("gc", "."), "is not a file", "GC log"),
                Arguments.of(List.of("gc", "x.log", "--cascade-threshold", "2"), "--cascade-threshold", "between 0 and 1"),
                Arguments.of(List.of("tune", "hello", "--heapz", "1g"), "unknown setting 'heapz'", "server-threads"),
                Arguments.of(List.of("tune", "hello", "--gc", "g1,cms"), "--gc: unknown collector 'cms'", "shenandoah"),
                Arguments.of(List.of("tune", "hello", "--heap", "1g,lots"), "--heap: 'lots' is not a size", "512m"),
                Arguments.of(List.of("tune", "hello", "--repeat", "0"), "--repeat: '0' is not a number within", "1..100"),
                Arguments.of(List.of("tune", "hello", "--repeat", "auto:2"), "--repeat: 'auto:2': auto:MAX needs MAX", "3..100"),
                Arguments.of(List.of("tune", "no-such-experiment.yaml"), "no such experiment file", "no-such-experiment.yaml"),
                Arguments.of(List.of("tune", "--resume", "no-such-dir"), "has no experiment.yaml", "perflab tune"));
    }

    @ParameterizedTest
    @MethodSource("badInput")
    void badFlagsGiveOneLineAndExitTwo(List<String> args, String expected, String hint) throws Exception {
        PerflabProcess.assertRefused(work, TEST_WORKLOADS, expected, hint, args.toArray(String[]::new));
    }

    static Stream<Arguments> badExperimentFiles() {
        return Stream.of(
                Arguments.of("workload: hello\nmatrix:\n  heapsize: [1g]\n", "matrix: unknown setting 'heapsize'", "server-threads"),
                Arguments.of("workload: hello\nrepeats: 3\n", "unknown key 'repeats'", "rate-sweep"),
                Arguments.of("workload: hello\nmatrix:\n  server-threads: [8, lots]\n", "server-threads", "lots"),
                Arguments.of("workload: hello\nsteps:\n  - name: a\n  - name: b\n    access-log: maybe\n", "--access-log: 'maybe' is not on or off", "on or off"),
                Arguments.of("workload: hello\nrate-sweep:\n  rates: [2000, 1000]\n", "the rates must increase", "1000"),
                Arguments.of("workload: hello\nmatrix: {gc: [g1]}\nobjective: {p98-ms: 5}\n", "unknown goal 'p98-ms'", "p99-ms"),
                Arguments.of("matrix: {gc: [g1]}\n", "workload: missing", "hello"));
    }

    @ParameterizedTest
    @MethodSource("badExperimentFiles")
    void badExperimentFilesGiveOneLineAndExitTwo(String yaml, String expected, String hint) throws Exception {
        java.nio.file.Files.writeString(work.resolve("bad.yaml"), yaml);
        try (PerflabProcess p = PerflabProcess.startShortWith(work, TEST_WORKLOADS, "tune", "bad.yaml")) {
            assertEquals(2, p.await(Duration.ofSeconds(60)), p.err());
            assertOneLine(p.err());
            assertTrue(p.err().contains(expected), p.err());
            assertTrue(p.err().contains(hint), "the message should name what is accepted: " + p.err());
            assertFalse(java.nio.file.Files.exists(work.resolve("results")), "nothing runs before the whole file is valid");
        }
    }

    @org.junit.jupiter.api.Test
    void aFileThatIsNotAGcLogNamesTheKnownFormats() throws Exception {
        java.nio.file.Files.writeString(work.resolve("notes.txt"), "not a GC log\n".repeat(300));
        java.nio.file.Files.writeString(work.resolve("jdk8.log"),
                "2024-01-01T10:00:00.000+0000: 0.123: [GC (Allocation Failure) [PSYoungGen: 1K->0K(2K)] 1K->0K(8K), 0.001 secs]\n");
        java.nio.file.Files.writeString(work.resolve("gc.log"), "[2024-01-01T10:00:00.000+0000][0.010s][info][gc] Using G1\n");
        for (String file : List.of("notes.txt", "jdk8.log")) {
            try (PerflabProcess p = PerflabProcess.startShortWith(work, TEST_WORKLOADS, "gc", file)) {
                assertEquals(2, p.await(Duration.ofSeconds(60)), p.err());
                assertOneLine(p.err());
                assertTrue(p.err().contains(file + " is not a HotSpot unified GC log"), p.err());
                assertTrue(p.err().contains("known formats") && p.err().contains("Shenandoah"), p.err());
            }
        }
        try (PerflabProcess p = PerflabProcess.startShortWith(work, TEST_WORKLOADS, "gc", "gc.log", "--from", "yesterday")) {
            assertEquals(2, p.await(Duration.ofSeconds(60)), p.err());
            assertOneLine(p.err());
            assertTrue(p.err().contains("--from: 'yesterday' is not a time"), p.err());
        }
    }

    @org.junit.jupiter.api.Test
    void unreachableTargetIsOneLine() throws Exception {
        int port = perflab.core.process.LocalSockets.freePort(); // nothing listens there
        try (PerflabProcess p = PerflabProcess.startShortWith(work, TEST_WORKLOADS, "drive", "hello", "--target", "http://127.0.0.1:" + port,
                "--duration", "2s", "--warmup", "0s")) {
            int status = p.await(Duration.ofSeconds(60));
            assertEquals(1, status, p.err());
            assertOneLine(p.err());
            assertTrue(p.err().contains("cannot connect to 127.0.0.1:" + port), p.err());
        }
    }

    @org.junit.jupiter.api.Test
    void portInUseNamesThePort() throws Exception {
        try (ServerSocket busy = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            try (PerflabProcess p = PerflabProcess.startShortWith(work, TEST_WORKLOADS, "run", "hello", "--port",
                    Integer.toString(busy.getLocalPort()), "--duration", "2s", "--warmup", "0s")) {
                int status = p.await(Duration.ofSeconds(90));
                assertEquals(1, status, p.err());
                String first = p.err().lines().findFirst().orElse("");
                assertTrue(first.contains("port " + busy.getLocalPort()) && first.contains("in use"), p.err());
                assertNoStackTrace(p.err());
            }
        }
    }

    @org.junit.jupiter.api.Test
    void jvmFlagTheJvmRejectsIsNamed() throws Exception {
        try (PerflabProcess p = PerflabProcess.startShortWith(work, TEST_WORKLOADS, "run", "hello", "--jvm", "-XX:+NoSuchFlagAtAll",
                "--duration", "2s", "--warmup", "0s")) {
            int status = p.await(Duration.ofSeconds(90));
            assertEquals(1, status, p.err());
            String first = p.err().lines().findFirst().orElse("");
            assertTrue(first.contains("NoSuchFlagAtAll") && first.contains("refused"), p.err());
            assertNoStackTrace(p.err());
            // the run directory with what was written so far is kept
            assertTrue(p.out().contains("results go to"), p.out());
        }
    }

    /** A setting the stack refuses is the SUT's reason on the first line: a failed run (1), not a stack trace. */
    @org.junit.jupiter.api.Test
    void settingTheStackRefusesIsNamed() throws Exception {
        try (PerflabProcess p = PerflabProcess.startShortWith(work, TEST_WORKLOADS, "run", "notes", "--http", "h2c",
                "--duration", "2s", "--warmup", "0s")) {
            int status = p.await(Duration.ofSeconds(90));
            assertEquals(1, status, p.err());
            String first = p.err().lines().findFirst().orElse("");
            assertTrue(first.contains("the notes example serves HTTP/1.1 only"), p.err());
            assertNoStackTrace(p.err());
        }
    }

    private static void assertOneLine(String err) {
        List<String> lines = new ArrayList<>(err.lines().filter(l -> !l.isBlank()).toList());
        assertEquals(1, lines.size(), "expected one line, got: " + err);
        assertTrue(lines.get(0).startsWith("perflab: "), err);
        assertNoStackTrace(err);
    }

    private static void assertNoStackTrace(String err) {
        assertFalse(err.contains("\tat "), "stack trace: " + err);
        assertNotEquals(-1, err.indexOf("perflab: "), err);
    }
}
