package perflab.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import perflab.core.server.ServerFile;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Server files: a full one read as written, every mistake one line naming the file, the line and the key. */
class ServerFileReaderTest {
    private static final String TOMCAT = """
            description: Apache Tomcat 11 with soap-echo's CXF service
            workload: soap-echo
            home:
              maven: org.apache.tomcat:tomcat:11.0.24:zip
            command: ["{home}/bin/catalina.sh", run]
            env:
              CATALINA_OPTS: "{jvm}"
              JAVA_HOME: "{javaHome}"
            files: [conf/server.xml]
            ports: [port, shutdown]
            url: http://127.0.0.1:{port}/soap-echo/services/PerfService
            ready:
              http: http://127.0.0.1:{port}/
              status: 200-404
              timeout: 3m
            stop:
              signal: SIGINT
              grace: 20s
            settings:
              threads: {type: integer, default: 200, min: 1, max: 10000, help: the connector's maxThreads}
              keep-alive: {type: choice, values: [on, off], default: on}
            """;

    private static ServerFile read(String yaml) {
        return ServerFileReader.fromText("t.yaml", yaml, "t");
    }

    private static String refusal(String yaml) {
        return assertThrows(IllegalArgumentException.class, () -> read(yaml)).getMessage();
    }

    @Test
    void aFullFileIsReadAsWritten() {
        ServerFile f = read(TOMCAT);
        assertEquals("t", f.name(), "the file's name by default");
        assertEquals("soap-echo", f.workload());
        assertEquals(List.of("{home}/bin/catalina.sh", "run"), f.command());
        assertEquals(new ServerFile.Home(null, "org.apache.tomcat:tomcat:11.0.24:zip"), f.home());
        assertEquals(Map.of("CATALINA_OPTS", "{jvm}", "JAVA_HOME", "{javaHome}"), f.env());
        assertEquals(List.of("port", "shutdown"), f.ports());
        assertEquals(new ServerFile.Ready(ServerFile.Ready.Kind.HTTP, "http://127.0.0.1:{port}/", 200, 404,
                Duration.ofMinutes(3)), f.ready());
        assertEquals(new ServerFile.Stop("INT", List.of(), Duration.ofSeconds(20)), f.stop());
        assertEquals(ServerFile.Jvm.Mode.PLACEHOLDER, f.jvm().mode(), "{jvm} in an env value");
        assertEquals("200", f.settings().get(0).defaultValue());
        assertEquals("7", f.settings().get(0).normalize("7"));
        assertTrue(f.settings().get(0).dimension(), "a server's setting is an axis of perflab tune");
        assertEquals("on", f.settings().get(1).defaultValue());
        assertTrue(f.content().contains("catalina.sh"), "the text is kept for run.json");
    }

    @Test
    void aSmallFileGetsItsDefaults() {
        ServerFile f = read("""
                name: plain
                command: python3 -m http.server '{port}' --bind 127.0.0.1
                ready: {tcp: port}
                """);
        assertEquals("plain", f.name());
        assertEquals(List.of("python3", "-m", "http.server", "{port}", "--bind", "127.0.0.1"), f.command());
        assertEquals(List.of("port"), f.ports());
        assertEquals(ServerFile.Ready.Kind.TCP, f.ready().kind());
        assertEquals(Duration.ofSeconds(120), f.ready().timeout());
        assertEquals(new ServerFile.Stop("TERM", List.of(), Duration.ofSeconds(15)), f.stop());
        assertEquals(ServerFile.Jvm.Mode.NONE, f.jvm().mode(), "no {jvm} anywhere: not a JVM perflab can tune");
        assertNull(f.home());
        assertNull(f.url());
    }

    @Test
    void aProductsOwnDollarBracesAreNotPlaceholders() {
        assertEquals(List.of("port"), ServerFile.placeholders("<Connector port=\"{port}\" dir=\"${catalina.base}/x\"/>"));
        assertEquals(List.of("ports.admin", "max-threads"), ServerFile.placeholders("{ports.admin} {max-threads} {\"json\":1}"));
    }

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', value = {
            "command: [x]\\nready: {tcp: port}\\nreadiness: 1| t.yaml:3: readiness: unknown key",
            "ready: {tcp: port}| t.yaml:1: command: missing",
            "command: [x]| t.yaml:1: ready: missing",
            "command: []\\nready: {tcp: port}| t.yaml:1: command: give the program",
            "command: 'a \"b'\\nready: {tcp: port}| t.yaml:1: command: a double quote is not closed",
            "command: [x, '{prot}']\\nready: {tcp: port}| t.yaml:1: command: unknown placeholder {prot}; this file has",
            "command: [x]\\nready: {tcp: admin}| t.yaml:2: ready.tcp: 'admin' is not one of the ports: port",
            "command: [x]\\nready: {tcp: port, line: up}| t.yaml:2: ready: give one of http",
            "command: [x]\\nready: {line: '(('}| t.yaml:2: ready.line: not a regular expression",
            "command: [x]\\nready: {http: 'ftp://x'}| t.yaml:2: ready.http: 'ftp://x' is not an http:// URL",
            "command: [x]\\nready: {tcp: port, status: 200}| t.yaml:2: ready.status: only an http check has a status",
            "command: [x]\\nready: {tcp: port, timeout: soon}| t.yaml:2: ready.timeout: 'soon' is not a duration",
            "command: [x]\\nready: {tcp: port}\\nstop: {signal: STOP}| t.yaml:3: stop.signal: 'STOP' is not one of TERM",
            "command: [x]\\nready: {tcp: port}\\nstop: {signal: TERM, command: [y]}| t.yaml:3: stop: give a signal or a command",
            "command: [x]\\nready: {tcp: port}\\nfiles: [a]| t.yaml:3: files: files are copied from the home",
            "command: [x]\\nhome: /h\\nfiles: [../etc/passwd]\\nready: {tcp: port}| t.yaml:3: files: '../etc/passwd' is not a path inside the home",
            "command: [x]\\nready: {tcp: port}\\ntemplates: {conf/a.xml: a.xml}| t.yaml:3: templates: templates are written into the run's copy",
            "command: [x]\\nhome: /h\\ntemplates: {conf/a.xml: no-such-template.xml}\\nready: {tcp: port}| t.yaml:3: templates.conf/a.xml: no template file",
            "command: [x]\\nhome: /h\\ntemplates: {/etc/passwd: a.xml}\\nready: {tcp: port}| t.yaml:3: templates: '/etc/passwd' is not a path inside the home",
            "command: [x]\\nready: {tcp: port}\\nhome: {maven: tomcat}| t.yaml:3: home.maven: 'tomcat' is not GROUP:ARTIFACT:VERSION",
            "command: [x]\\nready: {tcp: port}\\njvm: placeholder| t.yaml:3: jvm: placeholder: put {jvm} in the command",
            "command: [x]\\nready: {tcp: port}\\njvm: {file: a}| t.yaml:3: jvm.file: the file is in the run's copy",
            "command: [x]\\nready: {tcp: port}\\nenv: {1X: a}| t.yaml:3: env: '1X' is not an environment variable's name",
            "command: [x]\\nready: {tcp: port}\\nsettings: {maxThreads: {type: integer}}| t.yaml:3: settings.maxThreads: a setting's name is lower-case",
            "command: [x]\\nready: {tcp: port}\\nsettings: {t: {type: real}}| t.yaml:3: settings.t.type: 'real' is not integer",
            "command: [x]\\nready: {tcp: port}\\nsettings: {t: {type: integer, max: 5, default: 9}}| t.yaml:3: settings.t.default: --t must be within",
            "command: [x]\\nready: {tcp: port}\\nsettings: {t: {type: choice}}| t.yaml:3: settings.t: a choice lists its values",
            "command: [x]\\nready: {tcp: port}\\nports: [port, port]| t.yaml:3: ports: a name is given twice",
            "command: [x]\\nready: {tcp: port}\\nports: [port, Admin_1]| t.yaml:3: ports: 'Admin_1' is not a lower-case name",
            "command: [x]\\ncommand: [y]\\nready: {tcp: port}| t.yaml:2: command: given twice",
            "command: [x]\\nready: {tcp: port}\\nname: 'a b'| t.yaml:3: name: 'a b' is not a word",
            "- a\\n- b| t.yaml:1: the file: expected keys and values here",
            "command: [x\\nready: 1| t.yaml:2: not YAML",
    })
    void everyMistakeIsOneLineNamingTheLineAndTheKey(String yaml, String expected) {
        String message = refusal(yaml.replace("\\n", "\n"));
        assertTrue(message.startsWith(expected), message);
        assertEquals(1, message.lines().count(), message);
    }

    @Test
    void aliasesAreRefusedSoThatABombCannotGrow() {
        String bomb = """
                a: &a [x, x, x, x, x, x, x, x, x]
                b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]
                c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]
                command: [x]
                ready: {tcp: port}
                """;
        String message = refusal(bomb);
        assertTrue(message.startsWith("t.yaml:"), message);
        assertEquals(1, message.lines().count(), message);
    }

    @Test
    void aMissingOrHugeFileIsRefusedInOneLine(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        assertEquals("no such server file: " + dir.resolve("none.yaml"), assertThrows(IllegalArgumentException.class,
                () -> ServerFileReader.read(dir.resolve("none.yaml"))).getMessage());
        Path huge = dir.resolve("huge.yaml");
        Files.writeString(huge, "# " + "x".repeat(300_000));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ServerFileReader.read(huge)).getMessage()
                .endsWith("a server file is a page of YAML"));
        Path named = dir.resolve("nginx.yaml");
        Files.writeString(named, "command: nginx -g 'daemon off;'\nready: {tcp: port}\n");
        ServerFile f = ServerFileReader.read(named);
        assertEquals("nginx", f.name());
        assertEquals(List.of("nginx", "-g", "daemon off;"), f.command());
    }

    @Test
    void templatesAreFoundBesideTheServerFile(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Files.createDirectories(dir.resolve("tomcat"));
        Files.writeString(dir.resolve("tomcat/server.xml"), "<Server port=\"-1\"/>");
        Path yaml = dir.resolve("tomcat.yaml");
        Files.writeString(yaml, "command: ['{home}/bin/catalina.sh', run]\nhome: /opt/tomcat\n"
                + "templates: {conf/server.xml: tomcat/server.xml}\nready: {tcp: port}\n");
        ServerFile f = ServerFileReader.read(yaml);
        assertEquals(java.util.Map.of("conf/server.xml", dir.resolve("tomcat/server.xml").toString()), f.templates());
        Files.writeString(yaml, "command: [x]\nhome: /opt/tomcat\nfiles: [./conf/server.xml]\n"
                + "templates: {conf/server.xml: tomcat/server.xml}\nready: {tcp: port}\n");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ServerFileReader.read(yaml)).getMessage()
                .endsWith("templates.conf/server.xml: this file is given twice (in files: or templates:); give it once"));
    }

    @Test
    void shellWordsKeepQuotesAndBackslashesAsAShellDoes() {
        assertEquals(List.of("a b", "c\"d", "e f", "g$h", "$HOME", "*"),
                ShellWords.split("'a b' \"c\\\"d\" e\\ f \"g\\$h\" $HOME *", IllegalArgumentException::new));
        assertEquals(List.of(), ShellWords.split("   ", IllegalArgumentException::new));
        assertEquals(List.of("", "x"), ShellWords.split("'' x", IllegalArgumentException::new));
        assertThrows(IllegalArgumentException.class, () -> ShellWords.split("a\\", IllegalArgumentException::new));
    }
}
