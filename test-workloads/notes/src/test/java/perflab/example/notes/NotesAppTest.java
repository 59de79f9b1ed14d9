package perflab.example.notes;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import perflab.core.sut.StartedServer;
import perflab.core.sut.SutArgs;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The example's app and store on loopback: the session, the token and the size limits hold against a hostile client. */
class NotesAppTest {
    private final HttpClient http = HttpClient.newHttpClient();
    private StartedServer store;
    private StartedServer app;
    private String base;

    @BeforeEach
    void start() throws Exception {
        store = NotesStore.start(SutArgs.parse(new String[] {"--port", "0"}, Set.of("latency")));
        app = NotesApp.start(SutArgs.parse(new String[] {"--port", "0", "--max-request-bytes", "2048",
                "--store-url", "http://127.0.0.1:" + store.port()}, Set.of("store-url", "max-request-bytes")));
        base = "http://127.0.0.1:" + app.port();
    }

    @AfterEach
    void stop() throws Exception {
        app.stop();
        store.stop();
    }

    private HttpResponse<String> send(String method, String path, String cookie, String form) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path))
                .method(method, form == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(form))
                .header("Content-Type", "application/x-www-form-urlencoded");
        if (cookie != null) {
            b.header("Cookie", cookie);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private String login(String user) throws Exception {
        HttpResponse<String> r = send("POST", "/login", null, "user=" + user + "&password=secret");
        assertEquals(303, r.statusCode());
        return r.headers().firstValue("Set-Cookie").orElseThrow().split(";")[0];
    }

    @Test
    void aUserAddsAndReadsANoteWithTheTokenOfTheList() throws Exception {
        String cookie = login("alice");
        HttpResponse<String> list = send("GET", "/notes", cookie, null);
        assertEquals(200, list.statusCode());
        String csrf = list.body().replaceAll("(?s).*name=\"csrf\" value=\"([0-9a-f]+)\".*", "$1");
        HttpResponse<String> added = send("POST", "/notes", cookie, "csrf=" + csrf + "&text=%3Cb%3Ehi%3C%2Fb%3E");
        assertEquals(201, added.statusCode(), added.body());
        String id = added.body().replaceAll("(?s).*<p id=\"created\">(\\d+)</p>.*", "$1");
        HttpResponse<String> note = send("GET", "/notes/" + id, cookie, null);
        assertEquals(200, note.statusCode());
        assertTrue(note.body().contains("&lt;b&gt;hi&lt;/b&gt;"), "markup in a note is escaped: " + note.body());
        assertTrue(send("GET", "/notes", cookie, null).body().contains("<td class=\"id\">" + id + "</td>"));
    }

    @Test
    void withoutASessionOrWithAWrongTokenNothingHappens() throws Exception {
        assertEquals(401, send("GET", "/notes", null, null).statusCode());
        assertEquals(401, send("GET", "/notes", "NOTESID=forged", null).statusCode());
        assertEquals(403, send("POST", "/login", null, "user=alice&password=guess").statusCode());
        assertEquals(403, send("POST", "/login", null, "user=%ZZ&password=secret").statusCode(), "a bad escape is refused");
        String cookie = login("bob");
        assertEquals(403, send("POST", "/notes", cookie, "csrf=0000&text=x").statusCode());
        assertEquals(403, send("POST", "/notes", cookie, "text=x").statusCode());
        assertEquals(404, send("GET", "/notes/../../etc/passwd", cookie, null).statusCode());
    }

    @Test
    void anOversizedBodyIsRefused() throws Exception {
        String cookie = login("carol");
        assertEquals(413, send("POST", "/notes", cookie, "csrf=x&text=" + "a".repeat(4096)).statusCode());
        assertEquals(413, send("POST", "/login", null, "user=" + "a".repeat(4096)).statusCode());
    }

    @Test
    void theAppRefusesWhatItCannotServe() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> NotesApp.start(SutArgs.parse(
                new String[] {"--port", "0", "--http", "h2c", "--store-url", "http://127.0.0.1:1"}, Set.of("store-url", "http"))))
                .getMessage().contains("HTTP/1.1 only"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> NotesApp.start(SutArgs.parse(
                new String[] {"--port", "0", "--store-url", "http://example.com:80"}, Set.of("store-url"))))
                .getMessage().contains("--store-url must be"));
    }
}
