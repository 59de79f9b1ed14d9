package perflab.trade.site;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** One person's browser: a session cookie, no redirects followed (the tests look at them), forms posted. */
public final class SiteBrowser {
    private final URI base;
    /**
     * HTTP/1.1, as browsers speak to these pages and as perflab's driver does: Java's client would otherwise offer
     * an h2c upgrade on its first request, and on a POST Liberty 26 (its Netty transport) never answered that.
     */
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .followRedirects(HttpClient.Redirect.NEVER).connectTimeout(Duration.ofSeconds(10)).build();
    /** The session cookie it sends ({@code JSESSIONID=...}), null before one came; a test may plant one. */
    public String sessionCookie;

    public SiteBrowser(URI base) {
        this.base = base;
    }

    public HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return send(request(path).GET());
    }

    /** Posts {@code fields} (name, value, name, value, ...) as a form. */
    public HttpResponse<String> post(String path, String... fields) throws IOException, InterruptedException {
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < fields.length; i += 2) {
            body.append(body.length() == 0 ? "" : "&").append(URLEncoder.encode(fields[i], StandardCharsets.UTF_8))
                    .append('=').append(URLEncoder.encode(fields[i + 1], StandardCharsets.UTF_8));
        }
        return send(request(path).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString())));
    }

    public HttpResponse<String> login(String userId, String password) throws IOException, InterruptedException {
        return post("/login", "uid", userId, "passwd", password);
    }

    /** The session's CSRF token, from its home page. */
    public String token() throws IOException, InterruptedException {
        String page = get("/home").body();
        String open = "name=\"csrf\" value=\"";
        int at = page.indexOf(open);
        if (at < 0) {
            throw new AssertionError("no CSRF token on the home page");
        }
        return page.substring(at + open.length(), page.indexOf('"', at + open.length()));
    }

    private HttpRequest.Builder request(String path) {
        // a server that never answers fails the test instead of holding the build
        HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(60));
        if (sessionCookie != null) {
            b.header("Cookie", sessionCookie);
        }
        return b;
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        response.headers().firstValue("Set-Cookie").ifPresent(c -> sessionCookie = c.substring(0, c.indexOf(';')));
        return response;
    }

    /** Sends {@code method} with a body of {@code contentType} as given: a request no form would make. */
    public HttpResponse<String> send(String method, String path, String contentType, String body)
            throws IOException, InterruptedException {
        HttpRequest.Builder b = request(path).method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            b.header("Content-Type", contentType);
        }
        return send(b);
    }

    /**
     * The status a server answers {@code request} (the bytes of a whole HTTP/1.1 request, as written) with, sent on a
     * socket of its own: what an HTTP client library would refuse to send (a malformed escape in the path, a NUL).
     * 0 when the server closed the connection without an answer.
     */
    public int rawStatus(String request) throws IOException {
        try (java.net.Socket socket = new java.net.Socket(base.getHost(), base.getPort())) {
            socket.setSoTimeout(30_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().flush();
            java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(socket.getInputStream(),
                    StandardCharsets.ISO_8859_1));
            String status = in.readLine();
            if (status == null) {
                return 0;
            }
            String[] words = status.split(" ");
            if (words.length < 2 || !words[0].startsWith("HTTP/")) {
                throw new AssertionError("not an HTTP status line: " + status);
            }
            return Integer.parseInt(words[1]);
        }
    }
}
