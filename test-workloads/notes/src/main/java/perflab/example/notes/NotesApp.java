package perflab.example.notes;

import com.sun.net.httpserver.HttpExchange;
import perflab.core.sut.ServerSettings;
import perflab.core.sut.StartedServer;
import perflab.core.sut.SutArgs;
import perflab.core.sut.SutBootstrap;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The example workload's SUT: a small notes web application on the JDK's HttpServer, in front of its storage
 * service ({@link NotesStore}, at {@code --store-url}). A user logs in ({@code POST /login}, a session cookie
 * back), lists their notes ({@code GET /notes}: a table of ids and a form with a CSRF token), reads one
 * ({@code GET /notes/ID}) and adds one ({@code POST /notes} with the token). Requests without a session get
 * 401, with a wrong token 403, with a body over {@code --max-request-bytes} 413.
 */
public final class NotesApp {
    static final String SESSION_COOKIE = "NOTESID";
    static final String PASSWORD = "secret";

    /** A logged-in user and the token their forms carry. */
    private record Session(String user, String csrf) {
    }

    private final Map<String, Session> sessions = new ConcurrentHashMap<>();
    private final SecureRandom random = new SecureRandom();
    private final HttpClient store = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String storeUrl;
    private final int maxRequestBytes;

    private NotesApp(String storeUrl, int maxRequestBytes) {
        this.storeUrl = storeUrl;
        this.maxRequestBytes = maxRequestBytes;
    }

    public static void main(String[] args) {
        Set<String> names = new HashSet<>(ServerSettings.NAMES);
        names.add("store-url");
        SutBootstrap.run(args, names, NotesApp::start);
    }

    static StartedServer start(SutArgs args) throws IOException {
        ServerSettings settings = ServerSettings.from(args);
        if (settings.http() != ServerSettings.Http.HTTP1) {
            throw new IllegalArgumentException("the notes example serves HTTP/1.1 only (the JDK's HttpServer has no h2c)");
        }
        String storeUrl = args.get("store-url", null);
        if (storeUrl == null || !storeUrl.matches("http://127\\.0\\.0\\.1:\\d{1,5}")) {
            throw new IllegalArgumentException("--store-url must be http://127.0.0.1:PORT (the store perflab started), got " + storeUrl);
        }
        NotesApp app = new NotesApp(storeUrl, settings.maxRequestBytes());
        return HttpExchanges.start(settings.host(), settings.port(), settings.serverThreads(), "/", app::handle);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String method = exchange.getRequestMethod();
            String path = exchange.getRequestURI().getPath();
            if (method.equals("POST") && path.equals("/login")) {
                login(exchange);
                return;
            }
            Session session = sessions.get(cookie(exchange));
            if (session == null) {
                HttpExchanges.send(exchange, 401, "text/plain", "log in first");
            } else if (method.equals("GET") && path.equals("/notes")) {
                list(exchange, session);
            } else if (method.equals("GET") && path.matches("/notes/\\d{1,18}")) {
                view(exchange, path.substring("/notes/".length()));
            } else if (method.equals("POST") && path.equals("/notes")) {
                add(exchange, session);
            } else {
                HttpExchanges.send(exchange, 404, "text/plain", "no such page");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            HttpExchanges.send(exchange, 503, "text/plain", "stopping");
        }
    }

    private void login(HttpExchange exchange) throws IOException {
        byte[] body = HttpExchanges.body(exchange, maxRequestBytes);
        if (body == null) {
            HttpExchanges.send(exchange, 413, "text/plain", "request too large");
            return;
        }
        Map<String, String> form = HttpExchanges.form(new String(body, StandardCharsets.UTF_8));
        String user = form.get("user");
        if (user == null || !user.matches("[a-z0-9]{1,32}") || !PASSWORD.equals(form.get("password"))) {
            HttpExchanges.send(exchange, 403, "text/plain", "wrong user or password");
            return;
        }
        String id = token();
        sessions.put(id, new Session(user, token()));
        exchange.getResponseHeaders().add("Set-Cookie", SESSION_COOKIE + "=" + id + "; Path=/; HttpOnly");
        exchange.getResponseHeaders().set("Location", "/notes");
        HttpExchanges.send(exchange, 303, "text/plain", "");
    }

    private void list(HttpExchange exchange, Session session) throws IOException, InterruptedException {
        HttpResponse<String> ids = store.send(HttpRequest.newBuilder(URI.create(storeUrl + "/store?owner=" + session.user()))
                .GET().build(), HttpResponse.BodyHandlers.ofString());
        StringBuilder page = new StringBuilder(512).append("<html><body><h1>Notes of ")
                .append(HttpExchanges.html(session.user())).append("</h1><table>");
        for (String id : ids.body().isEmpty() ? new String[0] : ids.body().split(",")) {
            page.append("<tr><td class=\"id\">").append(id).append("</td></tr>");
        }
        page.append("</table><form method=\"post\" action=\"/notes\"><input type=\"hidden\" name=\"csrf\" value=\"")
                .append(session.csrf()).append("\"><textarea name=\"text\"></textarea></form></body></html>");
        HttpExchanges.send(exchange, 200, "text/html; charset=UTF-8", page.toString());
    }

    private void view(HttpExchange exchange, String id) throws IOException, InterruptedException {
        HttpResponse<String> note = store.send(HttpRequest.newBuilder(URI.create(storeUrl + "/store/" + id)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        if (note.statusCode() != 200) {
            HttpExchanges.send(exchange, 404, "text/plain", "no such note");
            return;
        }
        HttpExchanges.send(exchange, 200, "text/html; charset=UTF-8", "<html><body><p id=\"note\" data-id=\"" + id
                + "\">" + HttpExchanges.html(note.body()) + "</p></body></html>");
    }

    private void add(HttpExchange exchange, Session session) throws IOException, InterruptedException {
        byte[] body = HttpExchanges.body(exchange, maxRequestBytes);
        if (body == null) {
            HttpExchanges.send(exchange, 413, "text/plain", "request too large");
            return;
        }
        Map<String, String> form = HttpExchanges.form(new String(body, StandardCharsets.UTF_8));
        if (!session.csrf().equals(form.get("csrf"))) {
            HttpExchanges.send(exchange, 403, "text/plain", "bad or missing csrf token");
            return;
        }
        String text = form.getOrDefault("text", "");
        HttpResponse<String> id = store.send(HttpRequest.newBuilder(URI.create(storeUrl + "/store?owner=" + session.user()))
                .POST(HttpRequest.BodyPublishers.ofString(text)).build(), HttpResponse.BodyHandlers.ofString());
        if (id.statusCode() != 200) {
            HttpExchanges.send(exchange, 502, "text/plain", "the store refused the note: " + id.statusCode());
            return;
        }
        HttpExchanges.send(exchange, 201, "text/html; charset=UTF-8", "<html><body><p id=\"created\">" + id.body()
                + "</p></body></html>");
    }

    private String cookie(HttpExchange exchange) {
        for (String header : exchange.getRequestHeaders().getOrDefault("Cookie", java.util.List.of())) {
            for (String pair : header.split(";")) {
                String p = pair.trim();
                if (p.startsWith(SESSION_COOKIE + "=")) {
                    return p.substring(SESSION_COOKIE.length() + 1);
                }
            }
        }
        return "";
    }

    private String token() {
        byte[] bytes = new byte[16];
        random.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }
}
