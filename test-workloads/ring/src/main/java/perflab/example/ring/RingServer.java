package perflab.example.ring;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import perflab.core.sut.RunningServer;
import perflab.core.sut.ServerSettings;
import perflab.core.sut.SutArgs;
import perflab.core.sut.SutBootstrap;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The ring example's SUT: a SIP responder on UDP ({@link SipResponder}), announced as {@code sip=PORT} on the
 * READY line, and an HTTP page of its counters ({@code GET /calls}, JSON) on the JDK's HttpServer. Given
 * {@code --phone host:port} (the SIPp that only answers, started before it), it first calls that phone once
 * ({@link PhoneCall}) and fails to start if the phone does not answer.
 */
public final class RingServer implements RunningServer {
    private final HttpServer http;
    private final ExecutorService pool;
    private final SipResponder sip;
    /** Calls answered by the phone it was told of: 1 when it was given one. */
    private final int phoneCalls;

    private RingServer(HttpServer http, ExecutorService pool, SipResponder sip, int phoneCalls) {
        this.http = http;
        this.pool = pool;
        this.sip = sip;
        this.phoneCalls = phoneCalls;
    }

    public static void main(String[] args) {
        Set<String> names = new HashSet<>(ServerSettings.NAMES);
        names.add(RingWorkload.PHONE);
        SutBootstrap.run(args, names, RingServer::start);
    }

    static RingServer start(SutArgs args) throws IOException {
        ServerSettings settings = ServerSettings.from(args);
        if (settings.http() != ServerSettings.Http.HTTP1) {
            throw new IllegalArgumentException("the ring example serves HTTP/1.1 only (the JDK's HttpServer has no h2c)");
        }
        int phoneCalls = 0;
        if (args.has(RingWorkload.PHONE)) {
            String phone = args.get(RingWorkload.PHONE, null);
            int colon = phone.lastIndexOf(':');
            if (colon <= 0 || !phone.substring(colon + 1).matches("[0-9]{1,5}")) {
                throw new IllegalArgumentException("--phone: '" + phone + "' is not host:port");
            }
            PhoneCall.place(settings.host(), new InetSocketAddress(phone.substring(0, colon),
                    Integer.parseInt(phone.substring(colon + 1))), Duration.ofSeconds(20));
            phoneCalls = 1;
        }
        SipResponder sip = new SipResponder(settings.host());
        // The JDK's HttpServer writes a response's head and body apart: with Nagle's algorithm on, the body waits
        // for the client's delayed ACK of the head, 40 ms a request on Linux. Read once, before the first server.
        System.setProperty("sun.net.httpserver.nodelay", "true");
        HttpServer http = HttpServer.create(new InetSocketAddress(settings.host(), settings.port()), 256);
        ExecutorService pool = Executors.newFixedThreadPool(settings.serverThreads());
        http.setExecutor(pool);
        RingServer server = new RingServer(http, pool, sip, phoneCalls);
        http.createContext("/calls", server::counters);
        http.start();
        return server;
    }

    private void counters(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!exchange.getRequestMethod().equals("GET")) {
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            byte[] body = String.format("{\"invites\":%d,\"acks\":%d,\"byes\":%d,\"open\":%d,\"dropped\":%d,"
                    + "\"phoneCalls\":%d}", sip.invites.get(), sip.acks.get(), sip.byes.get(), sip.openCalls(),
                    sip.dropped.get(), phoneCalls)
                    .getBytes(StandardCharsets.US_ASCII);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    @Override
    public int port() {
        return http.getAddress().getPort();
    }

    @Override
    public Map<String, Integer> otherPorts() {
        return Map.of("sip", sip.port());
    }

    @Override
    public void stop() throws Exception {
        http.stop(1);
        pool.shutdown();
        sip.close();
    }
}
