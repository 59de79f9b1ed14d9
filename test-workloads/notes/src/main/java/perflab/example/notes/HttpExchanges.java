package perflab.example.notes;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import perflab.core.sut.StartedServer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** Reading and answering JDK HttpServer exchanges, for the example's two servers. */
final class HttpExchanges {
    private HttpExchanges() {
    }

    /** Starts a JDK HttpServer with a fixed pool of {@code threads} that stops with the process protocol's stop. */
    static StartedServer start(String host, int port, int threads, String context, HttpHandler handler) throws IOException {
        // The JDK's HttpServer writes a response's head and body apart: with Nagle's algorithm on, the body waits
        // for the client's delayed ACK of the head, 40 ms a request on Linux. Read once, before the first server.
        System.setProperty("sun.net.httpserver.nodelay", "true");
        HttpServer server = HttpServer.create(new InetSocketAddress(host, port), 256);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        server.setExecutor(pool);
        server.createContext(context, handler);
        server.start();
        return new StartedServer(server.getAddress().getPort(), null, () -> {
            server.stop(1);
            pool.shutdown();
        });
    }

    /** The request body, refused (null) when it is longer than {@code max} bytes: a hostile client gets a 413. */
    static byte[] body(HttpExchange exchange, int max) throws IOException {
        try (InputStream in = exchange.getRequestBody()) {
            byte[] body = in.readNBytes(max + 1);
            return body.length > max ? null : body;
        }
    }

    /** application/x-www-form-urlencoded fields (or a query string), decoded. */
    static Map<String, String> form(String encoded) {
        Map<String, String> fields = new LinkedHashMap<>();
        if (encoded == null || encoded.isEmpty()) {
            return fields;
        }
        for (String pair : encoded.split("&")) {
            int eq = pair.indexOf('=');
            try {
                String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
                String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
                fields.putIfAbsent(name, value);
            } catch (IllegalArgumentException e) {
                // a malformed escape: the field is left out, and the handler refuses what is missing
            }
        }
        return fields;
    }

    static void send(HttpExchange exchange, int status, String contentType, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    /** Escapes text for HTML content and attribute values. */
    static String html(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;")
                .replace("'", "&#39;");
    }
}
