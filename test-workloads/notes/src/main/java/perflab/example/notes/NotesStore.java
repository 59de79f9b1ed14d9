package perflab.example.notes;

import com.sun.net.httpserver.HttpExchange;
import perflab.core.sut.StartedServer;
import perflab.core.sut.SutArgs;
import perflab.core.sut.SutBootstrap;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The notes app's storage service: the example workload's companion process, which perflab starts before the
 * SUT and monitors beside it. {@code POST /store?owner=U} keeps a note and answers its id, {@code GET /store/ID}
 * answers a note, {@code GET /store?owner=U} the owner's latest ids. {@code --latency} delays every answer (a
 * slower back end).
 */
public final class NotesStore {
    static final int MAX_NOTE_BYTES = 4096;
    private static final int LATEST = 20;

    private final Map<Long, String> notes = new ConcurrentHashMap<>();
    private final Map<String, Deque<Long>> byOwner = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();
    private final long latencyMillis;

    private NotesStore(long latencyMillis) {
        this.latencyMillis = latencyMillis;
    }

    public static void main(String[] args) {
        SutBootstrap.run(args, Set.of("latency"), NotesStore::start);
    }

    static StartedServer start(SutArgs args) throws IOException {
        String latency = args.get("latency", "0ms");
        if (!latency.matches("\\d{1,6}ms")) { // perflab passes the setting's canonical form
            throw new IllegalArgumentException("--latency must be whole milliseconds such as 5ms, got '" + latency + "'");
        }
        NotesStore store = new NotesStore(Long.parseLong(latency.substring(0, latency.length() - 2)));
        return HttpExchanges.start(args.get("host", "127.0.0.1"), args.getInt("port", 0), 16, "/store", store::handle);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (latencyMillis > 0) {
                Thread.sleep(latencyMillis);
            }
            String path = exchange.getRequestURI().getPath();
            String owner = HttpExchanges.form(exchange.getRequestURI().getRawQuery()).get("owner");
            if (exchange.getRequestMethod().equals("POST") && path.equals("/store") && owner != null) {
                byte[] body = HttpExchanges.body(exchange, MAX_NOTE_BYTES);
                if (body == null) {
                    HttpExchanges.send(exchange, 413, "text/plain", "a note holds at most " + MAX_NOTE_BYTES + " bytes");
                    return;
                }
                long id = ids.incrementAndGet();
                notes.put(id, new String(body, StandardCharsets.UTF_8));
                Deque<Long> latest = byOwner.computeIfAbsent(owner, o -> new ArrayDeque<>());
                synchronized (latest) {
                    latest.addFirst(id);
                    if (latest.size() > LATEST) {
                        latest.removeLast();
                    }
                }
                HttpExchanges.send(exchange, 200, "text/plain", Long.toString(id));
            } else if (exchange.getRequestMethod().equals("GET") && path.equals("/store") && owner != null) {
                Deque<Long> latest = byOwner.getOrDefault(owner, new ArrayDeque<>());
                String list;
                synchronized (latest) {
                    list = String.join(",", latest.stream().map(String::valueOf).toList());
                }
                HttpExchanges.send(exchange, 200, "text/plain", list);
            } else if (exchange.getRequestMethod().equals("GET") && path.matches("/store/\\d{1,18}")) {
                String note = notes.get(Long.parseLong(path.substring("/store/".length())));
                HttpExchanges.send(exchange, note == null ? 404 : 200, "text/plain", note == null ? "no such note" : note);
            } else {
                HttpExchanges.send(exchange, 404, "text/plain", "no such resource");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
