package perflab.serverkind.command;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import perflab.core.config.RunConfig;
import perflab.core.server.ServerFile;
import perflab.core.server.ServerPlan;
import perflab.core.server.ServerRequest;
import perflab.core.workload.WorkloadSetting;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CommandServerKindTest {
    private static final ServerFile.Ready HTTP = new ServerFile.Ready(ServerFile.Ready.Kind.HTTP,
            "http://127.0.0.1:{port}/health", 200, 299, Duration.ofSeconds(30));
    private static final ServerFile.Stop TERM = new ServerFile.Stop("TERM", List.of(), Duration.ofSeconds(5));
    private static final List<WorkloadSetting> THREADS = List.of(
            WorkloadSetting.integer("threads", 200, 1, 10_000, "the connector's threads"));

    @TempDir
    Path tmp;

    private static ServerFile file(List<String> command, ServerFile.Home home, Map<String, String> env, List<String> files,
                                   List<String> ports, ServerFile.Ready ready, ServerFile.Jvm jvm) {
        return new ServerFile("srv", "srv.yaml", "text", null, "", command, home, env, files, Map.of(), ports, null, ready, TERM,
                jvm, THREADS, List.of());
    }

    private ServerRequest request(RunConfig.Sut sut, boolean jfr) {
        return new ServerRequest(null, sut, "sut", tmp, tmp.resolve("run"), jfr, List.of(),
                List.of("-Xmx256m", "-Xlog:gc*:file=/r/gc.log"), "gc.log");
    }

    private static RunConfig.Sut sut(Map<String, String> settings) {
        return new RunConfig.Sut(List.of(), null, null, null, null, 0, settings);
    }

    private Path home() throws IOException {
        Path home = tmp.resolve("home");
        Files.createDirectories(home.resolve("conf"));
        Files.createDirectories(home.resolve("logs"));
        Files.writeString(home.resolve("conf/server.xml"), "<Connector port=\"{port}\" maxThreads=\"{threads}\" "
                + "shutdown=\"{ports.shutdown}\" base=\"${catalina.base}\"/>");
        Files.writeString(home.resolve("conf/other.xml"), "untouched {not-ours}");
        Files.writeString(home.resolve("conf/jvm.options"), "-Dfrom.home=1");
        return home;
    }

    private ServerPlan plan(ServerFile f, RunConfig.Sut sut) throws IOException {
        Files.createDirectories(tmp.resolve("run"));
        return new CommandServerKind().plan(request(sut, false), f, tmp.resolve("repo"), tmp.resolve("cache"));
    }

    @Test
    void fillsPlaceholdersInCommandEnvAndFilesLeavingPortsForTheRun() throws IOException {
        Path home = home();
        ServerFile f = file(List.of("{home}/bin/start", "--threads={threads}", "{jvm}", "--log={runDir}/x.log"),
                new ServerFile.Home(home.toString(), null), Map.of("OPTS", "{jvm} -Dp={port}"), List.of("conf/server.xml"),
                List.of("http", "shutdown"), HTTP, new ServerFile.Jvm(ServerFile.Jvm.Mode.PLACEHOLDER, null));
        ServerPlan plan = plan(f, sut(Map.of("threads", "64")));
        Path copy = tmp.resolve("run/sut-home").toAbsolutePath();
        assertEquals(List.of(copy + "/bin/start", "--threads=64", "-Xmx256m", "-Xlog:gc*:file=/r/gc.log",
                "--log=" + tmp.resolve("run").toAbsolutePath() + "/x.log"), plan.command());
        assertEquals("-Xmx256m -Xlog:gc*:file=/r/gc.log -Dp={sut.port}", plan.program().env().get("OPTS"));
        assertEquals("<Connector port=\"{sut.port}\" maxThreads=\"64\" shutdown=\"{sut.shutdown}\" "
                + "base=\"${catalina.base}\"/>", plan.program().files().get(copy.resolve("conf/server.xml")));
        assertEquals(List.of("port", "shutdown"), plan.program().ports());
        assertEquals("http://127.0.0.1:{sut.port}/health", plan.program().ready().target());
        assertEquals("gc.log", plan.gcLog());
        assertTrue(plan.jvm());
        assertEquals(copy, plan.program().workDir());
        assertEquals(home.toRealPath(), plan.program().home().toRealPath());
    }

    /** A companion's placeholders: its port left for the run, its URL as the workload says it is reached. */
    @Test
    void aCompanionIsReachedAtTheUrlItsWorkloadGives() throws IOException {
        ServerFile f = new ServerFile("srv", "srv.yaml", "text", null, "", List.of("x", "--db={postgres.url}",
                "--backend={backend.url}", "--pg-port={postgres.port}"), null, Map.of(), List.of(), Map.of(),
                List.of("port"), null, HTTP, TERM, new ServerFile.Jvm(ServerFile.Jvm.Mode.PLACEHOLDER, null), THREADS,
                List.of("postgres", "backend"));
        Files.createDirectories(tmp.resolve("run"));
        ServerRequest r = new ServerRequest(null, sut(Map.of()), "sut", tmp, tmp.resolve("run"), false, List.of(),
                List.of(), "gc.log", Map.of("postgres", "jdbc:postgresql://127.0.0.1:{postgres.port}/trade"));
        ServerPlan plan = new CommandServerKind().plan(r, f, tmp.resolve("repo"), tmp.resolve("cache"));
        assertEquals(List.of("x", "--db=jdbc:postgresql://127.0.0.1:{postgres.port}/trade",
                "--backend=http://127.0.0.1:{backend.port}", "--pg-port={postgres.port}"), plan.command());
    }

    @Test
    void theRunCopyLinksTheHomesFilesAndLeavesTheHomeUntouched() throws IOException {
        Path home = home();
        String before = Files.readString(home.resolve("conf/server.xml"));
        ServerFile f = file(List.of("x"), new ServerFile.Home(home.toString(), null), Map.of(), List.of("conf/server.xml"),
                List.of("port", "shutdown"), HTTP, new ServerFile.Jvm(ServerFile.Jvm.Mode.NONE, null));
        plan(f, sut(Map.of()));
        Path copy = tmp.resolve("run/sut-home");
        assertTrue(Files.isSymbolicLink(copy.resolve("conf/other.xml")));
        assertEquals("untouched {not-ours}", Files.readString(copy.resolve("conf/other.xml")));
        assertFalse(Files.exists(copy.resolve("conf/server.xml")), "the run writes the filled file itself, once its ports are chosen");
        assertTrue(Files.isDirectory(copy.resolve("logs")) && !Files.isSymbolicLink(copy.resolve("logs")));
        Files.writeString(copy.resolve("logs/catalina.out"), "a log"); // what a server writes lands in the run
        assertFalse(Files.exists(home.resolve("logs/catalina.out")));
        assertEquals(before, Files.readString(home.resolve("conf/server.xml")));
    }

    @Test
    void aDirectoryTheHomeLinksToIsMadeAnewSoNothingIsWrittenThroughIt() throws IOException {
        Path home = home();
        Path etc = Files.createDirectories(tmp.resolve("etc/server"));
        Files.writeString(etc.resolve("site.conf"), "site");
        Files.createSymbolicLink(home.resolve("site"), etc);
        Files.createSymbolicLink(home.resolve("conf/relative.xml"), Path.of("other.xml"));
        ServerFile f = file(List.of("x"), new ServerFile.Home(home.toString(), null), Map.of(), List.of(),
                List.of("port"), HTTP, new ServerFile.Jvm(ServerFile.Jvm.Mode.NONE, null));
        plan(f, sut(Map.of()));
        Path copy = tmp.resolve("run/sut-home");
        assertTrue(Files.isDirectory(copy.resolve("site")) && !Files.isSymbolicLink(copy.resolve("site")));
        assertEquals("site", Files.readString(copy.resolve("site/site.conf")));
        assertEquals("untouched {not-ours}", Files.readString(copy.resolve("conf/relative.xml")), "a relative link resolves");
        Files.writeString(copy.resolve("site/new.log"), "x");
        assertFalse(Files.exists(etc.resolve("new.log")), "nothing written through the link");
    }

    @Test
    void aRunDirectoryInsideTheHomeIsRefused() throws IOException {
        Path home = tmp; // the run directory, tmp/run, is inside it
        Files.createDirectories(tmp.resolve("run"));
        ServerFile f = file(List.of("x"), new ServerFile.Home(home.toString(), null), Map.of(), List.of(),
                List.of("port"), HTTP, new ServerFile.Jvm(ServerFile.Jvm.Mode.NONE, null));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> plan(f, sut(Map.of())));
        assertTrue(e.getMessage().contains("is inside the home"), e.getMessage());
    }

    @Test
    void jvmFlagsGoWhereTheFileSays() throws IOException {
        Path home = home();
        ServerFile.Home h = new ServerFile.Home(home.toString(), null);
        ServerPlan env = plan(file(List.of("x"), h, Map.of(), List.of(), List.of("port"), HTTP,
                new ServerFile.Jvm(ServerFile.Jvm.Mode.ENV, "CATALINA_OPTS")), sut(Map.of()));
        assertTrue(env.program().env().get("CATALINA_OPTS").endsWith("-Xmx256m -Xlog:gc*:file=/r/gc.log"));
        Files.walk(tmp.resolve("run")).sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        ServerPlan inFile = plan(file(List.of("x"), h, Map.of(), List.of(), List.of("port"), HTTP,
                new ServerFile.Jvm(ServerFile.Jvm.Mode.FILE, "conf/jvm.options")), sut(Map.of()));
        assertEquals("-Dfrom.home=1\n-Xmx256m\n-Xlog:gc*:file=/r/gc.log\n",
                inFile.program().files().get(tmp.resolve("run/sut-home/conf/jvm.options").toAbsolutePath()));
        assertEquals("-Dfrom.home=1", Files.readString(home.resolve("conf/jvm.options")));
    }

    @Test
    void aServerThatIsNoJvmRefusesJvmSettingsInOneLine() throws IOException {
        ServerFile f = file(List.of("nginx"), null, Map.of(), List.of(), List.of("port"), HTTP,
                new ServerFile.Jvm(ServerFile.Jvm.Mode.NONE, null));
        RunConfig.Sut heap = new RunConfig.Sut(List.of(), "512m", "g1", null, null, 0, Map.of());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> plan(f, heap));
        assertEquals("--heap, --gc: srv is no JVM (srv.yaml says jvm: none)", e.getMessage());
        ServerPlan plan = plan(f, sut(Map.of()));
        assertFalse(plan.jvm());
        assertEquals(null, plan.gcLog());
    }

    @Test
    void anUnknownPlaceholderInAFileOfTheHomeIsRefusedNamingIt() throws IOException {
        Path home = home();
        ServerFile f = file(List.of("x"), new ServerFile.Home(home.toString(), null), Map.of(), List.of("conf/other.xml"),
                List.of("port"), HTTP, new ServerFile.Jvm(ServerFile.Jvm.Mode.NONE, null));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> plan(f, sut(Map.of())));
        assertTrue(e.getMessage().startsWith("srv.yaml: files: conf/other.xml: unknown placeholder {not-ours}; known: "),
                e.getMessage());
    }

    @Test
    void aMavenDistributionIsUnpackedOnceWithItsScriptsExecutable() throws IOException {
        Path zip = tmp.resolve("repo/org/example/server/1.0/server-1.0.zip");
        Files.createDirectories(zip.getParent());
        try (ZipOutputStream z = new ZipOutputStream(Files.newOutputStream(zip))) {
            put(z, "server-1.0/bin/start.sh", "#!/bin/sh\necho hi\n");
            put(z, "server-1.0/conf/a.conf", "port {port}\n");
        }
        Path home = ServerHome.unpacked("s.yaml", "org.example:server:1.0:zip", tmp.resolve("repo"), tmp.resolve("cache"));
        assertEquals(tmp.resolve("cache/homes/org.example/server/1.0/server-1.0"), home);
        assertTrue(Files.isExecutable(home.resolve("bin/start.sh")));
        assertEquals("port {port}\n", Files.readString(home.resolve("conf/a.conf")));
        Files.writeString(home.resolve("conf/a.conf"), "changed"); // a second resolve takes the unpacked home as it is
        ServerHome.unpacked("s.yaml", "org.example:server:1.0", tmp.resolve("repo"), tmp.resolve("cache"));
        assertEquals("changed", Files.readString(home.resolve("conf/a.conf")));
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class, () ->
                ServerHome.unpacked("s.yaml", "org.example:other:2.0:zip", tmp.resolve("repo"), tmp.resolve("cache")));
        assertTrue(missing.getMessage().startsWith("s.yaml: home: org.example:other:2.0:zip is not in Maven's local "
                + "repository"), missing.getMessage());
    }

    @Test
    void aZipEntryLeavingTheHomeIsRefused() throws IOException {
        Path zip = tmp.resolve("repo/org/example/evil/1.0/evil-1.0.zip");
        Files.createDirectories(zip.getParent());
        try (ZipOutputStream z = new ZipOutputStream(Files.newOutputStream(zip))) {
            put(z, "../../escaped.txt", "x");
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () ->
                ServerHome.unpacked("s.yaml", "org.example:evil:1.0:zip", tmp.resolve("repo"), tmp.resolve("cache")));
        assertTrue(e.getMessage().contains("would leave the directory"), e.getMessage());
        assertFalse(Files.exists(tmp.resolve("cache/escaped.txt")) || Files.exists(tmp.resolve("cache/homes/escaped.txt")));
        try (var left = Files.list(tmp.resolve("cache/homes/org.example/evil"))) {
            assertEquals(List.of(), left.toList(), "nothing half-unpacked is left in the cache");
        }
        IllegalArgumentException out = assertThrows(IllegalArgumentException.class, () ->
                ServerHome.unpacked("s.yaml", "..:x:1:zip", tmp.resolve("repo"), tmp.resolve("cache")));
        assertEquals("s.yaml: home: maven: '..:x:1:zip' is not GROUP:ARTIFACT:VERSION[:zip]", out.getMessage());
    }

    private static void put(ZipOutputStream z, String name, String text) throws IOException {
        z.putNextEntry(new ZipEntry(name));
        OutputStream out = z;
        out.write(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        z.closeEntry();
    }
}
