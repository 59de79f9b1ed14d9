package perflab.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import perflab.testsupport.PerflabProcess;
import perflab.testsupport.Poll;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A server from a server file as the SUT (docs/servers.md), started for real: hello's server started by a shell
 * script that forks its JVM, as a product's start script does. perflab knows it ready by HTTP, measures its whole
 * tree, gives its JVM the settings under test, records the file, and leaves nothing behind, also when killed.
 */
class ServerFileIT {
    private static final String HELLO = PerflabProcess.testWorkload("hello");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path work;

    /**
     * hello's server behind a start script: the script is the process perflab starts, the JVM its child. hello's
     * server stops when its stdin closes, as perflab's stacks do: the script hands it its own ({@code <&0}), which a
     * shell's background job would otherwise get from /dev/null.
     */
    private Path serverFile(String extra) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String text = """
                description: hello's server started by a script that forks its JVM
                workload: hello
                command:
                  - bash
                  - -c
                  - '%s {jvm} -cp "%s" perflab.example.hello.HelloServer --host 127.0.0.1 --port {port} --server-threads {threads} <&0 & echo $! > {runDir}/java.pid; wait'
                ready:
                  http: http://127.0.0.1:{port}/hello?id=1
                  status: 200-299
                  timeout: 90s
                stop: {signal: TERM, grace: 20s}
                settings:
                  threads: {type: integer, default: 16, min: 4, max: 200, help: the server's request threads}
                %s""".formatted(java, HELLO, extra);
        Path file = work.resolve("hello-script.yaml");
        Files.writeString(file, text);
        return file;
    }

    @Test
    void aScriptStartedServerIsMeasuredWholeWithTheSettingsUnderTest() throws Exception {
        Path file = serverFile("");
        Path out = work.resolve("run");
        try (PerflabProcess p = PerflabProcess.startWith(work, HELLO, "run", "hello", "--server", file.toString(),
                "--set", "threads=8", "--clients", "4", "--warmup", "2s", "--duration", "3s", "--heap", "64m",
                "--gc", "serial", "--out", out.toString())) {
            assertEquals(0, p.await(Duration.ofSeconds(180)), p.err());
        }
        JsonNode summary = JSON.readTree(out.resolve("summary.json").toFile());
        assertEquals("hello-script", summary.get("stack").asText());
        assertEquals(0, summary.get("errors").get("total").asLong(), summary.toString());
        assertTrue(summary.get("requests").asLong() > 100, summary.toString());
        // the script alone would show no CPU: its JVM child's is counted
        assertTrue(summary.get("sut").get("cpuSeconds").asDouble() > 0.2, summary.toString());
        assertEquals("serial", summary.get("gc").get("collector").asText(), "--gc reached its JVM: " + summary);
        JsonNode run = JSON.readTree(out.resolve("run.json").toFile());
        String content = Files.readString(file);
        assertEquals(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                .digest(content.getBytes(StandardCharsets.UTF_8))), run.get("server").get("sha256").asText());
        assertEquals(content, run.get("server").get("content").asText());
        assertEquals("tree", run.get("processes").get("sut").get("sampled").asText());
        // its JVM asked from outside (attach, jcmd VM.flags): the settings in force, not only those given
        assertEquals("serial", run.get("effectiveJvm").get("collector").asText(), run.toString());
        assertEquals(64, run.get("effectiveJvm").get("heapMaxMb").asLong(), run.toString());
        String command = run.get("processes").get("sut").get("command").toString();
        assertTrue(command.contains("-Xmx64m") && command.contains("-XX:+UseSerialGC") && command.contains("--server-threads 8"),
                command);
        assertTrue(run.get("commandLine").asText().contains("--server " + file + " ") && run.get("commandLine").asText()
                .contains("--set threads=8"), run.get("commandLine").asText());
        long java = Long.parseLong(Files.readString(out.resolve("java.pid")).trim());
        PerflabProcess.assertGone(java);
    }

    /**
     * A workload's stack that a server file declares (hello's jetty-file: test-workloads/hello/hello-jetty.yaml):
     * --stack names it, perflab's own flags that the file declares fill its settings of the same names, the others
     * are refused in one line, its own knobs are --set; the run repeats it by --stack.
     */
    @Test
    void aStackAServerFileDeclaresTakesTheFlagsItDeclares() throws Exception {
        Path out = work.resolve("stack");
        try (PerflabProcess p = PerflabProcess.startWith(work, HELLO, "run", "hello", "--stack", "jetty-file",
                "--server-threads", "8", "--set", "max-bytes=65536", "--clients", "2", "--warmup", "1s", "--duration",
                "2s", "--heap", "64m", "--out", out.toString())) {
            assertEquals(0, p.await(Duration.ofSeconds(180)), p.err());
        }
        JsonNode summary = JSON.readTree(out.resolve("summary.json").toFile());
        assertEquals("jetty-file", summary.get("stack").asText());
        assertEquals(0, summary.get("errors").get("total").asLong(), summary.toString());
        assertTrue(summary.get("requests").asLong() > 0, summary.toString());
        JsonNode run = JSON.readTree(out.resolve("run.json").toFile());
        List<String> command = new java.util.ArrayList<>();
        run.get("processes").get("sut").get("command").forEach(w -> command.add(w.asText()));
        assertEquals("8", command.get(command.indexOf("--server-threads") + 1), command.toString());
        assertEquals("65536", command.get(command.indexOf("--max-request-bytes") + 1), command.toString());
        assertTrue(command.contains("-Xmx64m"), command.toString());
        assertEquals("hello-jetty", run.get("server").get("name").asText(), "the file is recorded: " + run.get("server"));
        String again = run.get("commandLine").asText();
        assertTrue(again.contains("--stack jetty-file") && again.contains("--server-threads 8")
                && again.contains("--set max-bytes=65536") && !again.contains("--server "), again);
        PerflabProcess.assertRefused(work, HELLO, "--max-requests-per-connection is a setting of perflab's stacks",
                "server-threads, max-bytes", "run", "hello", "--stack", "jetty-file", "--max-requests-per-connection",
                "5", "--duration", "1s");
        PerflabProcess.assertRefused(work, HELLO, "--set sets a server file's own settings", "a stack a server file "
                + "declares", "run", "hello", "--stack", "jetty", "--set", "max-bytes=2048", "--duration", "1s");
    }

    @Test
    void theServersTreeEndsWhenPerflabIsKilled() throws Exception {
        Path file = serverFile("");
        Path out = work.resolve("killed");
        // perflab run FILE: the file names its workload
        try (PerflabProcess p = PerflabProcess.startWith(work, HELLO, "run", file.toString(), "--clients", "2",
                "--warmup", "1s", "--duration", "60s", "--out", out.toString())) {
            Path pidFile = out.resolve("java.pid");
            Path csv = out.resolve("timeseries.csv");
            Poll.until("a measured second in " + csv, Duration.ofSeconds(120), () -> {
                if (!p.process.isAlive()) {
                    throw new AssertionError("perflab ended early: " + p.err());
                }
                return Files.exists(csv) && Files.readString(csv).contains(",measure,");
            }, seen -> seen);
            long java = Long.parseLong(Files.readString(pidFile).trim());
            long script = JSON.readTree(out.resolve("run.json").toFile()).get("processes").get("sut").get("pid").asLong();
            p.signal("KILL");
            p.process.waitFor();
            PerflabProcess.assertGone(java);
            PerflabProcess.assertGone(script);
        }
    }

    @Test
    void aServerThatExitsAtOnceIsReportedWithItsLastLinesAndLeavesThePartialRun() throws Exception {
        Path file = work.resolve("broken.yaml");
        Files.writeString(file, """
                command: [bash, -c, 'echo "no such config: conf/server.xml" >&2; exit 4']
                ready: {tcp: port}
                """);
        Path out = work.resolve("broken");
        try (PerflabProcess p = PerflabProcess.startShortWith(work, HELLO, "run", "hello", "--server", file.toString(),
                "--duration", "5s", "--out", out.toString())) {
            int status = p.await(Duration.ofSeconds(60));
            assertNotEquals(0, status);
            assertTrue(p.err().contains("the SUT failed to start: it exited with status 4 before it was ready"), p.err());
            assertTrue(p.err().contains("no such config: conf/server.xml"), "its last lines: " + p.err());
            assertTrue(!p.err().contains("\tat "), p.err());
        }
        assertTrue(Files.exists(out.resolve("run.json")), "the partial run directory is kept");
    }

    /**
     * A server that is no JVM: Debian's nginx answering hello's greet itself ("hello " and the request's id), its
     * configuration a template written into the run's copy of its home. Its workers do the work: the tree is measured.
     */
    @Test
    void nginxIsMeasuredAsAServerThatIsNoJvm() throws Exception {
        Path home = work.resolve("nginx-home");
        Files.createDirectories(home);
        Files.writeString(work.resolve("nginx.conf"), """
                # hello's greet answered by nginx itself; everything in the run's copy of this home
                worker_processes 1;
                pid {home}/nginx.pid;
                error_log stderr warn;
                events { worker_connections 256; }
                http {
                  access_log off;
                  client_body_temp_path {home}/body;
                  proxy_temp_path {home}/proxy;
                  fastcgi_temp_path {home}/fastcgi;
                  uwsgi_temp_path {home}/uwsgi;
                  scgi_temp_path {home}/scgi;
                  server {
                    listen 127.0.0.1:{port};
                    location = /hello { default_type text/plain; return 200 "hello $arg_id"; }
                  }
                }
                """);
        Path file = work.resolve("nginx.yaml");
        Files.writeString(file, """
                description: Debian's nginx answering hello's greet
                home: nginx-home
                command: [/usr/sbin/nginx, -p, "{home}", -c, "{home}/nginx.conf", -g, "daemon off;"]
                templates: {nginx.conf: nginx.conf}
                ready: {tcp: port, timeout: 30s}
                stop: {signal: QUIT, grace: 10s}
                """);
        Path out = work.resolve("nginx");
        try (PerflabProcess p = PerflabProcess.startWith(work, HELLO, "run", "hello", "--server", file.toString(),
                "--operation", "greet", "--clients", "4", "--warmup", "2s", "--duration", "3s", "--deep-check", "1",
                "--out", out.toString())) {
            assertEquals(0, p.await(Duration.ofSeconds(120)), p.err());
        }
        JsonNode summary = JSON.readTree(out.resolve("summary.json").toFile());
        assertEquals(0, summary.get("errors").get("total").asLong(), summary.toString());
        assertTrue(summary.get("requests").asLong() > 100, summary.toString());
        // the master only watches: the CPU is its worker's, a child in its tree
        assertTrue(summary.get("sut").get("cpuSeconds").asDouble() > 0.05, summary.toString());
        assertTrue(!summary.has("gc"), "no JVM, no GC figures: " + summary);
        assertEquals(0, JSON.readTree(out.resolve("run.json").toFile()).get("processes").get("sut").get("exitStatus")
                .asInt(), "nginx left on its QUIT, gracefully");
        assertTrue(Files.readString(out.resolve("sut-home/nginx.conf")).contains("listen 127.0.0.1:"));
        try (var left = Files.list(home)) {
            assertEquals(List.of(), left.toList(), "nothing written into the home itself");
        }
    }

    /**
     * {@code perflab serve FILE}: the file's server in the foreground on the port given, for another tool to load;
     * a second one on the same port is refused before it starts anything; Ctrl-C ends the whole tree.
     */
    @Test
    void serveStartsTheFilesServerOnThePortGivenUntilCtrlC() throws Exception {
        Path file = serverFile("");
        int port = perflab.core.process.LocalSockets.freePort();
        try (PerflabProcess serve = PerflabProcess.startWith(work, HELLO, "serve", file.toString(), "--set", "threads=4",
                "--port", Integer.toString(port), "--out", work.resolve("serve").toString())) {
            String url = serve.awaitLine(java.util.regex.Pattern.compile("at (http://127\\.0\\.0\\.1:" + port + "/\\S*)"));
            java.net.http.HttpResponse<String> answer = java.net.http.HttpClient.newHttpClient().send(
                    java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + port + "/hello?id=7")).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            assertEquals(200, answer.statusCode(), url);
            assertTrue(answer.body().contains("7"), answer.body());
            Path second = Files.createDirectories(work.resolve("second")); // its own stdout and stderr files
            PerflabProcess.assertRefused(second, HELLO, "port " + port + " on the loopback is in use", "--port 0",
                    "serve", file.toString(), "--port", Integer.toString(port), "--out", second.resolve("out").toString());
            assertTrue(!Files.exists(second.resolve("out")), "refused before anything started");
            long java = Long.parseLong(Files.readString(work.resolve("serve/java.pid")).trim());
            serve.signal("INT");
            // a JVM ended by SIGINT exits 128 + 2, as a shell's Ctrl-C'd program does, once its shutdown hook stopped the server
            assertEquals(130, serve.await(Duration.ofSeconds(60)), serve.err());
            assertTrue(serve.err().isBlank(), serve.err());
            PerflabProcess.assertGone(java);
        }
    }

    @Test
    void badServerFlagsAreRefusedInOneLine() throws Exception {
        Path file = serverFile("");
        PerflabProcess.assertRefused(work, HELLO, "--set sets a server file's own settings", "--server FILE",
                "run", "hello", "--set", "threads=8");
        PerflabProcess.assertRefused(work, HELLO, "hello-script has no setting 'nope'", "its settings: threads",
                "run", "hello", "--server", file.toString(), "--set", "nope=1");
        PerflabProcess.assertRefused(work, HELLO, "threads", "4",
                "run", "hello", "--server", file.toString(), "--set", "threads=1");
        PerflabProcess.assertRefused(work, HELLO, "--server-threads is a setting of perflab's stacks", "--set: threads",
                "run", "hello", "--server", file.toString(), "--server-threads", "4");
        PerflabProcess.assertRefused(work, HELLO, "no such server file", "missing.yaml",
                "run", "hello", "--server", work.resolve("missing.yaml").toString());
        PerflabProcess.assertRefused(work, HELLO, "--listen with --server", "its file's business",
                "serve", "hello", "--server", file.toString(), "--listen", "0.0.0.0");
        PerflabProcess.assertRefused(work, HELLO, "--port must be within 0..65535", "70000",
                "serve", file.toString(), "--port", "70000");
        PerflabProcess.assertRefused(work, PerflabProcess.testWorkload("notes"), "--store-latency is a setting of notes's own stacks",
                "--set", "run", "notes", "--server", file.toString(), "--store-latency", "5ms");
        Path needs = work.resolve("needs.yaml");
        Files.writeString(needs, "command: [sleep, '60']\nready: {tcp: port}\njvm: none\nsettings:\n  upstream: {type: text, help: where to}\n");
        PerflabProcess.assertRefused(work, HELLO, "needs needs its setting upstream, which has no default", "--set upstream=",
                "run", "hello", "--server", needs.toString(), "--duration", "2s");
        Path asks = work.resolve("asks.yaml");
        Files.writeString(asks, "command: [sleep, '60', '{db.port}']\nready: {tcp: port}\njvm: none\ncompanions: [db]\n");
        PerflabProcess.assertRefused(work, HELLO, "companions: hello's server side has no companion 'db'", "(it has none)",
                "run", "hello", "--server", asks.toString(), "--duration", "2s");
        Path noJvm = work.resolve("nojvm.yaml");
        Files.writeString(noJvm, "command: [sleep, '60']\nready: {tcp: port}\n");
        PerflabProcess.assertRefused(work, HELLO, "--heap: nojvm is no JVM", "jvm: none",
                "run", "hello", "--server", noJvm.toString(), "--heap", "64m", "--duration", "2s");
    }
}
