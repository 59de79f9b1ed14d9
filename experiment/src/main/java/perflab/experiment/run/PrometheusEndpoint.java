package perflab.experiment.run;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A run's live seconds served at {@code /metrics} in Prometheus's text exposition format (version 0.0.4), for the
 * length of the drive. Gauges hold the last second (throughput, latency in seconds, CPU in cores, memory in bytes);
 * counters the requests and errors since the drive began, by phase. Every series carries the run's labels (workload,
 * stack, operation, label) and {@code phase} ({@code warmup} or {@code window}), so a dashboard can show the warm-up
 * apart. The format is a page of text lines; perflab writes it itself rather than pull in a client library.
 */
final class PrometheusEndpoint implements Consumer<LiveSecond>, AutoCloseable {
    static final String PATH = "/metrics";
    private final HttpServer server;
    private final String labels;
    private final Map<String, long[]> totals = new LinkedHashMap<>();
    private volatile byte[] page = new byte[0];

    private PrometheusEndpoint(HttpServer server, Map<String, String> runLabels) {
        this.server = server;
        StringBuilder l = new StringBuilder();
        runLabels.forEach((k, v) -> {
            if (v != null) {
                l.append(l.length() == 0 ? "" : ",").append(k).append("=\"").append(escape(v)).append('"');
            }
        });
        this.labels = l.toString();
        this.page = render(null).getBytes(StandardCharsets.UTF_8);
    }

    /** Serves {@code export} until closed. */
    static PrometheusEndpoint start(MetricsExport export, Map<String, String> runLabels) throws IOException {
        // The JDK's server writes a response's head and its body in two sends. With Nagle's algorithm on, the body
        // waits for the scraper's delayed ACK of the head: 40 ms on every scrape over a kept-alive connection, which
        // Prometheus keeps. The JDK reads the switch once, at its first server; the CLI's JVM starts no other.
        if (System.getProperty("sun.net.httpserver.nodelay") == null) {
            System.setProperty("sun.net.httpserver.nodelay", "true");
        }
        HttpServer server = HttpServer.create(export.address(), 16);
        PrometheusEndpoint endpoint = new PrometheusEndpoint(server, runLabels);
        server.createContext("/", endpoint::handle);
        server.start();
        return endpoint;
    }

    int port() {
        return server.getAddress().getPort();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try {
            if (!exchange.getRequestURI().getPath().equals(PATH) || !exchange.getRequestMethod().equals("GET")) {
                exchange.sendResponseHeaders(404, -1);
                return;
            }
            byte[] body = page;
            exchange.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        } finally {
            exchange.close();
        }
    }

    @Override
    public synchronized void accept(LiveSecond s) {
        long[] t = totals.computeIfAbsent(s.phase(), k -> new long[2]);
        t[0] += s.successes() + s.errors();
        t[1] += s.errors();
        page = render(s).getBytes(StandardCharsets.UTF_8);
    }

    /** The exposition after {@code last} (null: before the first second). */
    private String render(LiveSecond last) {
        StringBuilder out = new StringBuilder(2048);
        counter(out, "perflab_requests_total", "Requests completed since the drive began, by phase.", 0);
        counter(out, "perflab_errors_total", "Failed requests since the drive began, by phase.", 1);
        if (last != null) {
            String phase = "phase=\"" + escape(last.phase()) + "\"";
            gauge(out, "perflab_throughput", "Successful requests per second in the last second.", phase, last.throughput());
            gauge(out, "perflab_latency_p50_seconds", "Median latency of the last second's successful requests.", phase,
                    last.p50Ms() / 1000);
            gauge(out, "perflab_latency_p99_seconds", "99th percentile latency of the last second.", phase, last.p99Ms() / 1000);
            gauge(out, "perflab_sut_cpu_cores", "The SUT's CPU in the last second, in cores.", phase, last.sutCpuPercent() / 100);
            gauge(out, "perflab_sut_resident_memory_bytes", "The SUT's resident set size.", phase, last.sutRssMb() * 1024 * 1024);
            gauge(out, "perflab_machine_cpu_ratio", "The machine's busy share of all its CPUs.", phase, last.machineCpuPercent() / 100);
            gauge(out, "perflab_sut_gc_pause_ratio", "The SUT's share of the last whole second in GC pauses.", phase,
                    last.gcOverheadPercent() / 100);
        }
        return out.toString();
    }

    private void counter(StringBuilder out, String name, String help, int index) {
        out.append("# HELP ").append(name).append(' ').append(help).append('\n');
        out.append("# TYPE ").append(name).append(" counter\n");
        totals.forEach((phase, t) -> out.append(name).append('{').append(labels).append(labels.isEmpty() ? "" : ",")
                .append("phase=\"").append(escape(phase)).append("\"} ").append(t[index]).append('\n'));
    }

    private void gauge(StringBuilder out, String name, String help, String phase, double value) {
        if (!Double.isFinite(value)) {
            return; // not known this second: no sample rather than a made-up one
        }
        out.append("# HELP ").append(name).append(' ').append(help).append('\n');
        out.append("# TYPE ").append(name).append(" gauge\n");
        out.append(name).append('{').append(labels).append(labels.isEmpty() ? "" : ",").append(phase).append("} ")
                .append(Double.toString(value)).append('\n');
    }

    /** A label value as the format wants it: backslash, quote and line feed escaped. */
    static String escape(String v) {
        return v.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
