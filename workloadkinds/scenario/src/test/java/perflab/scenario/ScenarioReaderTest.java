package perflab.scenario;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Scenario files: the ready one read as written, every mistake refused in one line naming file, line, column and key. */
class ScenarioReaderTest {
    private static final Path SCENARIOS = Path.of(System.getProperty("perflab.home", "../..")).resolve("scenarios");

    @TempDir
    Path dir;

    private Scenario read(String yaml) {
        return ScenarioReader.fromText("s.yaml", yaml, dir);
    }

    @Test
    void theNotesScenarioIsReadAsWritten() throws Exception {
        Scenario s = ScenarioReader.read(SCENARIOS.resolve("notes.yaml"), "scenarios/notes.yaml");
        assertEquals("notes", s.name());
        assertEquals("scenarios/notes.yaml", s.file());
        assertEquals(200, s.data().get("users").rows().size());
        assertEquals(List.of("user", "password"), s.data().get("users").columns());
        assertEquals(1, s.once().size());
        Step login = s.once().get(0);
        assertEquals("login", login.kind());
        assertEquals("POST", login.method());
        assertEquals(Encoding.FORM, login.body().encoding());
        assertEquals("user=${users.user}&password=${users.password}", login.body().text().toString());
        assertEquals("application/x-www-form-urlencoded", login.body().contentType());
        assertEquals(List.of("browse", "write"), s.mix().stream().map(Scenario.Transaction::name).toList());
        assertEquals(70, s.mix().get(0).weight());
        Step view = s.mix().get(0).steps().get(1);
        assertEquals(List.of("noteId"), view.ifPresent());
        assertEquals("/notes/${noteId}", view.path().toString());
        Step list = s.mix().get(0).steps().get(0);
        assertEquals(2, list.extractions().size());
        assertTrue(list.extractions().get(1).all());
        assertTrue(list.checks().get(0) instanceof Check.Status, "the default status check comes first");
        assertEquals(Scenario.Think.Kind.UNIFORM, list.think().kind(), "the file's default think time");
    }

    @Test
    void aStepWithoutANameIsNamedByItsRequest() {
        Scenario s = read("""
                scenario: plain
                steps:
                  - get: /items/${n}?q=${word}
                variables:
                  n: {counter: 1}
                  word: {value: x}
                """);
        assertEquals("GET /items/{n}?q={word}", s.mix().get(0).steps().get(0).kind());
        assertEquals(0, s.iterations());
        assertNull(s.mix().get(0).steps().get(0).body());
    }

    @Test
    void aJsonBodyKeepsTypesAndEscapesVariablesAsStrings() {
        Scenario s = read("""
                scenario: api
                variables:
                  name: {oneOf: [a]}
                steps:
                  - post: /api
                    json: {name: "${name}", count: 3, ok: true, none: null, list: [1.5, "x"]}
                """);
        Step.Body b = s.mix().get(0).steps().get(0).body();
        assertEquals("{\"name\":\"${name}\",\"count\":3,\"ok\":true,\"none\":null,\"list\":[1.5,\"x\"]}",
                b.text().toString());
        assertEquals(Encoding.JSON, b.encoding());
        assertEquals("application/json", b.contentType());
    }

    @Test
    void aBodyFileIsReadBesideTheScenarioAndEscapedAsItsTypeSays() throws Exception {
        Files.writeString(dir.resolve("echo.xml"), "<s:Envelope><x>${word}</x></s:Envelope>");
        Scenario s = read("""
                scenario: soap
                variables:
                  word: {value: "a<b"}
                steps:
                  - post: /soap
                    bodyFile: echo.xml
                    contentType: text/xml; charset=utf-8
                """);
        Step.Body b = s.mix().get(0).steps().get(0).body();
        assertEquals(Encoding.XML, b.encoding());
        assertEquals("<s:Envelope><x>${word}</x></s:Envelope>", b.text().toString());
    }

    @Test
    void declaresTellsAScenarioFromAServerFile() {
        ScenarioFileKind kind = new ScenarioFileKind();
        assertTrue(kind.declares("scenario: x\nsteps: []\n"));
        assertTrue(kind.declares("# my shop\n\n---\nscenario: shop\n"));
        assertFalse(kind.declares("command: [x]\nready: {tcp: port}\n"));
        assertFalse(kind.declares("name: x\nscenario: y\n"), "only as the first key");
    }

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', value = {
            "steps: [{get: /}]| s.yaml:1:1: scenario: missing",
            "scenario: x| s.yaml:1:1: steps: missing; give steps:",
            "scenario: x\\nsteps: [{get: /}]\\nmix: []| s.yaml:1:1: mix: give steps: (one list repeated) or mix:",
            "scenario: x\\nsteps: [{get: /}]\\nstep: 1| s.yaml:3:7: step: unknown key; a scenario file has scenario",
            "scenario: 'a b'\\nsteps: [{get: /}]| s.yaml:1:11: scenario: 'a b' is not a name",
            "scenario: x\\nsteps:\\n  - get: /a/${id}| s.yaml:3:10: steps[0].get: undefined variable ${id}; defined: ${client}",
            "scenario: x\\nsteps:\\n  - get: /a/${id| s.yaml:3:10: steps[0].get: '${' is not closed",
            "scenario: x\\nsteps:\\n  - {get: /a, post: /b}| s.yaml:3:5: steps[0]: give one request",
            "scenario: x\\nsteps:\\n  - {url: /a}| s.yaml:3:11: steps[0].url: unknown key; a step has name, get",
            "scenario: x\\nsteps:\\n  - {get: a}| s.yaml:3:11: steps[0].get: 'a' is not a path",
            "scenario: x\\nsteps:\\n  - {get: /, check: {status: 2000}}| s.yaml:3:30: steps[0].check.status: '2000' is not a status",
            "scenario: x\\nsteps:\\n  - {get: /, check: {regex: '(('}}| s.yaml:3:29: steps[0].check.regex: not a regular expression",
            "scenario: x\\nsteps:\\n  - {get: /, check: {json: {pointer: a}}}| s.yaml:3:38: steps[0].check.json.pointer: 'a' is not a JSON pointer",
            "scenario: x\\nsteps:\\n  - {get: /, check: {xpath: {expr: '//['}}}| s.yaml:3:36: steps[0].check.xpath.expr: not an XPath expression",
            "scenario: x\\nsteps:\\n  - {get: /, check: {size: 3}}| s.yaml:3:28: steps[0].check.size: unknown key; a check has status",
            "scenario: x\\nsteps:\\n  - {get: /, extract: {t: {css: 'input[name='}}}| s.yaml:3:33: steps[0].extract.t.css: not a CSS selector",
            "scenario: x\\nsteps:\\n  - {get: /, extract: {t: {regex: a, css: b}}}| s.yaml:3:27: steps[0].extract.t: give one of regex",
            "scenario: x\\nsteps:\\n  - {get: /, extract: {t: {regex: a, attr: v}}}| s.yaml:3:44: steps[0].extract.t.attr: only a css extraction",
            "scenario: x\\nsteps:\\n  - {get: /, extract: {client: {regex: a}}}| s.yaml:3:32: steps[0].extract.client: ${client} is built in",
            "scenario: x\\nsteps:\\n  - {get: /, form: {a: b}, json: {a: b}}| s.yaml:3:5: steps[0]: give one body",
            "scenario: x\\nsteps:\\n  - {get: /, headers: {Cookie: a=b}}| s.yaml:3:32: steps[0].headers.Cookie: the driver writes Cookie itself",
            "scenario: x\\nsteps:\\n  - {get: /, think: soon}| s.yaml:3:21: steps[0].think: 'soon' is not a duration",
            "scenario: x\\nsteps:\\n  - {get: /, think: {uniform: [2s, 1s]}}| s.yaml:3:31: steps[0].think.uniform: MAX is below MIN",
            "scenario: x\\nsteps:\\n  - {get: /, ifPresent: [nope]}| s.yaml:3:25: steps[0].ifPresent: undefined variable nope",
            "scenario: x\\nvariables: {n: {counter: 1}}\\nsteps:\\n  - {get: /, ifAbsent: n}| s.yaml:4:24: steps[0].ifAbsent: ${n} is not a value a step extracts or sets",
            "scenario: x\\nsteps:\\n  - {get: /, extract: {h: {regex: a, all: true}}}\\n  - {get: /x, consume: h}| s.yaml:4:24: steps[1].consume: the request does not use ${h}",
            "scenario: x\\nsteps:\\n  - {get: /, extract: {h: {regex: a}}}\\n  - {get: '/${h}', consume: [h, h]}| s.yaml:4:29: steps[1].consume: give one variable",
            "scenario: x\\nvariables: {n: {counter: 1}}\\nsteps:\\n  - {get: /, set: {n: a}}| s.yaml:4:23: steps[0].set.n: 'n' cannot be set",
            "scenario: x\\nsteps:\\n  - {get: /, set: {me: '${who}'}}| s.yaml:3:24: steps[0].set.me: undefined variable ${who}",
            "scenario: x\\nmix:\\n  - {name: a, endsSession: maybe, steps: [{get: /}]}| s.yaml:3:28: mix[0].endsSession:",
            "scenario: x\\nsteps:\\n  - {get: /, bodyFile: none.xml}| s.yaml:3:24: steps[0].bodyFile: no such file",
            "scenario: x\\nmix:\\n  - {name: a, weight: lots, steps: [{get: /}]}| s.yaml:3:23: mix[0].weight: 'lots' is not a number",
            "scenario: x\\nmix:\\n  - {name: a, weight: 0, steps: [{get: /}]}| s.yaml:3:23: mix[0].weight: a weight is a positive number",
            "scenario: x\\nmix:\\n  - {weight: 1, steps: [{get: /}]}| s.yaml:3:5: name: missing; a transaction is named",
            "scenario: x\\nmix:\\n  - {name: a, steps: []}| s.yaml:3:22: mix[0].steps: give at least one step",
            "scenario: x\\nvariables: {n: {counter: one}}\\nsteps: [{get: /}]| s.yaml:2:26: variables.n.counter: 'one' is not a whole number",
            "scenario: x\\nvariables: {n: {range: [5, 1]}}\\nsteps: [{get: /}]| s.yaml:2:24: variables.n.range: the range [5, 1] is empty",
            "scenario: x\\nvariables: {n: {counter: 1, value: a}}\\nsteps: [{get: /}]| s.yaml:2:16: variables.n: give one of counter",
            "scenario: x\\nvariables: {n: {csv: none.csv}}\\nsteps: [{get: /}]| s.yaml:2:22: variables.n.csv: no such file",
            "scenario: x\\nsteps: [{get: /}]\\nend: [{get: /bye}]| s.yaml:3:6: end: a session ends after iterations: N or a transaction with endsSession",
            "scenario: x\\nsteps: [{get: /}]\\niterations: 0| s.yaml:3:13: iterations: must be within 1..",
            "scenario: x\\nsteps: [{get: /]| s.yaml:2:16: not YAML",
    })
    void everyMistakeIsOneLineNamingTheLineTheColumnAndTheKey(String yaml, String expected) {
        String message = assertThrows(IllegalArgumentException.class, () -> read(yaml.replace("\\n", "\n"))).getMessage();
        assertTrue(message.startsWith(expected), message);
        assertEquals(1, message.lines().count(), message);
    }

    @Test
    void aCsvFileWithARowOfTheWrongSizeIsRefused() throws Exception {
        Files.writeString(dir.resolve("u.csv"), "user,password\nann,secret\nbob\n");
        String message = assertThrows(IllegalArgumentException.class, () -> read("""
                scenario: x
                variables: {u: {csv: u.csv}}
                steps: [{get: /}]
                """)).getMessage();
        assertEquals("s.yaml:2:22: variables.u.csv: u.csv: row 3 has 1 values for 2 columns", message);
    }

    @Test
    void csvFieldsMayBeQuoted() {
        assertEquals(List.of(List.of("a", "b,c"), List.of("d \"e\"", "f\ng")),
                CsvRecords.parse("a,\"b,c\"\r\n\n\"d \"\"e\"\"\",\"f\ng\"\n"));
        assertThrows(IllegalArgumentException.class, () -> CsvRecords.parse("a,\"b\n"));
    }

    @Test
    void aliasesAreRefusedSoThatABombCannotGrow() {
        String message = assertThrows(IllegalArgumentException.class, () -> read("""
                scenario: x
                a: &a [x, x, x, x, x, x, x, x, x]
                b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]
                steps: [{get: /}]
                """)).getMessage();
        assertTrue(message.startsWith("s.yaml:"), message);
    }
}
