package perflab.scenario;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A recording in the shape Chromium saves (its real recordings are made by trade's HarRecordingIT) made into a
 * scenario: the application's requests kept, assets and other hosts listed as left out, a form's token and an id
 * from a page extracted where the server gave them, pauses kept as think times, and the file readable as written.
 */
class HarImportTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private final ArrayNode entries = JSON.createArrayNode();
    private long clock = 1_700_000_000_000L;

    private void entry(String method, String url, String formBody, int status, String type, String body, long pauseMs) {
        ObjectNode e = entries.addObject();
        e.put("startedDateTime", java.time.Instant.ofEpochMilli(clock).toString());
        e.put("time", 13.0);
        ObjectNode req = e.putObject("request");
        req.put("method", method).put("url", url).put("httpVersion", "HTTP/1.1");
        ArrayNode headers = req.putArray("headers");
        headers.addObject().put("name", "User-Agent").put("value", "Mozilla/5.0");
        headers.addObject().put("name", "Cookie").put("value", "SID=old");
        if (formBody != null) {
            req.putObject("postData").put("mimeType", "application/x-www-form-urlencoded").put("text", formBody);
        }
        ObjectNode res = e.putObject("response");
        res.put("status", status);
        res.putArray("headers").addObject().put("name", "Content-Type").put("value", type);
        res.putObject("content").put("mimeType", type).put("text", body);
        clock += 13 + pauseMs;
    }

    private String convert() throws Exception {
        ObjectNode har = JSON.createObjectNode();
        har.putObject("log").put("version", "1.2").set("entries", entries);
        Path file = dir.resolve("visit.har");
        JSON.writeValue(file.toFile(), har);
        return HarImport.toScenario(file, "visit");
    }

    @Test
    void aLoginBrowseWriteVisitBecomesAScenarioThatCarriesTheServersValues() throws Exception {
        entry("GET", "http://127.0.0.1:8080/login", null, 200, "text/html",
                "<html><head><title>Log in</title></head><form><input type=\"hidden\" name=\"csrf\" value=\"k9&amp;Zq7\">"
                        + "<input name=\"user\"></form>", 2000);
        entry("GET", "http://127.0.0.1:8080/site.css", null, 200, "text/css", "body{}", 0);
        entry("GET", "https://cdn.example.com/lib.js", null, 200, "application/javascript", "x()", 0);
        entry("POST", "http://127.0.0.1:8080/login", "user=ann&password=secret&csrf=k9%26Zq7", 303, "text/plain", "", 0);
        entry("GET", "http://127.0.0.1:8080/notes", null, 200, "text/html",
                "<table><tr><td><a href=\"/notes/4711\">a note</a></td></tr></table>", 1500);
        entry("GET", "http://127.0.0.1:8080/notes/4711", null, 200, "text/html", "<p id=\"note\">a note</p>", 0);
        entry("POST", "http://127.0.0.1:8080/notes", "csrf=k9%26Zq7&text=hello+there", 201, "text/html", "<p>created</p>", 0);
        String yaml = convert();

        assertTrue(yaml.contains("# left out (2):\n#   GET /site.css (static)\n#   GET https://cdn.example.com/lib.js (another host)"), yaml);
        assertTrue(yaml.contains("# run it: perflab run THIS.yaml --target http://127.0.0.1:8080"), yaml);
        Files.writeString(dir.resolve("visit.yaml"), yaml);
        Scenario s = ScenarioReader.read(dir.resolve("visit.yaml"), "visit.yaml");
        List<Step> steps = s.mix().get(0).steps();
        assertEquals(List.of("GET /login", "POST /login", "GET /notes", "GET /notes/{id}", "POST /notes"),
                steps.stream().map(Step::kind).toList());
        Extraction csrf = steps.get(0).extractions().get(0);
        assertEquals("csrf", csrf.variable());
        assertEquals(Extraction.Kind.CSS, csrf.kind(), yaml);
        assertEquals("user=ann&password=secret&csrf=${csrf}", steps.get(1).body().text().toString(), "typed values stay");
        assertEquals("/notes/${notes_id}", steps.get(3).path().toString(), yaml);
        Extraction id = steps.get(2).extractions().get(0);
        assertEquals(Extraction.Kind.REGEX, id.kind(), yaml);
        assertEquals("csrf=${csrf}&text=hello+there", steps.get(4).body().text().toString(), "one token, one variable");
        long pause = steps.get(0).think().minNanos() / 1_000_000;
        assertTrue(pause >= 2000 && pause < 2100, "the pause after the login page (and its assets): " + pause);
        assertEquals(null, steps.get(1).think(), "the browser's own gaps are no think time");
        assertEquals(1500, steps.get(2).think().minNanos() / 1_000_000);
        assertTrue(steps.get(0).checks().stream().anyMatch(c -> c instanceof Check.Contains k
                && k.text().toString().equals("<title>Log in</title>")), yaml);
        assertTrue(steps.get(1).headers().isEmpty(), "the browser's headers and its cookies are not the scenario's");
        assertEquals(1, s.iterations());
    }

    @Test
    void aFileThatIsNoRecordingIsRefusedInOneLine() throws Exception {
        Path notHar = dir.resolve("x.har");
        Files.writeString(notHar, "{\"hello\": 1}");
        assertEquals(notHar + ": not a HAR file (no log.entries); save it from the browser's developer tools (Network, "
                + "Save all as HAR)", assertThrows(IllegalArgumentException.class, () -> HarImport.toScenario(notHar, "x")).getMessage());
        Files.writeString(notHar, "{not json");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> HarImport.toScenario(notHar, "x")).getMessage()
                .startsWith(notHar + ": not JSON"));
        assertEquals("no such HAR file: " + dir.resolve("none.har"), assertThrows(IllegalArgumentException.class,
                () -> HarImport.toScenario(dir.resolve("none.har"), "x")).getMessage());
        entry("GET", "http://127.0.0.1:8080/a.png", null, 200, "image/png", "", 0);
        assertTrue(assertThrows(IllegalArgumentException.class, this::convert).getMessage().contains("only static assets"));
    }
}
