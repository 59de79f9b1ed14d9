package perflab.driver;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;

/**
 * Everything the driver needs to know about the load, validated once here.
 *
 * @param target          http://host:port/path of the service
 * @param clients         connections (closed model: clients; open model: the connection pool)
 * @param rate            requests per second for the open model; 0 for the closed model
 * @param schedule        how the open model spaces its requests
 * @param duration        measured window by time; null when the window is a request count
 * @param requests        measured window by count (completed requests, errors included); 0 when by time
 * @param warmup          warm-up by time (may be zero)
 * @param warmupRequests  warm-up by count (0 = by time)
 * @param thinkTime       closed model: pause between a response and the client's next request
 * @param connections     connection policy
 * @param timeout         per-request timeout
 * @param deepCheckRatio  share of measured responses whose full content is checked (warm-up: all)
 * @param seed            random seed (Poisson schedule, traffic sessions)
 * @param eventLoops      Netty event loops (0 = one per available core)
 * @param firstClientIndex index of this process's first client when a run is split over driver processes
 * @param http            the protocol: HTTP/1.1, or HTTP/2 over cleartext with prior knowledge (h2c)
 * @param streamsPerConnection h2c: concurrent streams per connection (at least 1; must be 1 for HTTP/1.1)
 * @param share           this driver's place when the run is split over agents; null when it drives alone
 *
 * <p>Clients and connections: a client is one outstanding request at a time with its own traffic session.
 * Over HTTP/1.1 every client has its own connection. Over h2c, {@code streamsPerConnection} = S clients share
 * one connection, each on its own stream: {@code clients} is the number of concurrent requests and the
 * driver opens {@code ceil(clients / S)} connections (clients 0..S-1 on the first, and so on; the last one
 * may carry fewer). This holds in both models: in the open model, a connection is free while fewer than S
 * of its streams are in flight.
 */
public record LoadSpec(URI target, int clients, double rate, Schedule schedule, Duration duration, long requests,
                       Duration warmup, long warmupRequests, Duration thinkTime, ConnectionPolicy connections,
                       Duration timeout, double deepCheckRatio, long seed, int eventLoops, int firstClientIndex,
                       HttpVersion http, int streamsPerConnection, AgentShare share) {

    public enum Schedule { CONSTANT, POISSON }

    /** The protocol the driver speaks. */
    public enum HttpVersion {
        HTTP1("http1"), H2C("h2c");

        private final String label;

        HttpVersion(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }

        /** {@code --http}: http1 (also 1.1, http/1.1, h1) or h2c. */
        public static HttpVersion parse(String text) {
            return switch (text.trim().toLowerCase(java.util.Locale.ROOT)) {
                case "http1", "1.1", "http/1.1", "http1.1", "h1" -> HTTP1;
                case "h2c", "http2", "h2" -> H2C;
                default -> throw new IllegalArgumentException("--http: '" + text + "' is not http1 or h2c");
            };
        }

        @Override
        public String toString() {
            return label;
        }
    }

    /** A driver that drives the whole run alone. */
    public LoadSpec(URI target, int clients, double rate, Schedule schedule, Duration duration, long requests,
                    Duration warmup, long warmupRequests, Duration thinkTime, ConnectionPolicy connections,
                    Duration timeout, double deepCheckRatio, long seed, int eventLoops, int firstClientIndex,
                    HttpVersion http, int streamsPerConnection) {
        this(target, clients, rate, schedule, duration, requests, warmup, warmupRequests, thinkTime, connections,
                timeout, deepCheckRatio, seed, eventLoops, firstClientIndex, http, streamsPerConnection, null);
    }

    /** HTTP/1.1, one connection per client: the signature from before h2c. */
    public LoadSpec(URI target, int clients, double rate, Schedule schedule, Duration duration, long requests,
                    Duration warmup, long warmupRequests, Duration thinkTime, ConnectionPolicy connections,
                    Duration timeout, double deepCheckRatio, long seed, int eventLoops, int firstClientIndex) {
        this(target, clients, rate, schedule, duration, requests, warmup, warmupRequests, thinkTime, connections,
                timeout, deepCheckRatio, seed, eventLoops, firstClientIndex, HttpVersion.HTTP1, 1);
    }

    public LoadSpec {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(schedule, "schedule");
        Objects.requireNonNull(connections, "connections");
        Objects.requireNonNull(timeout, "timeout");
        http = http == null ? HttpVersion.HTTP1 : http;
        warmup = warmup == null ? Duration.ZERO : warmup;
        thinkTime = thinkTime == null ? Duration.ZERO : thinkTime;
        if (clients < 1) {
            throw new IllegalArgumentException("--clients must be at least 1, got " + clients);
        }
        if (rate < 0) {
            throw new IllegalArgumentException("--rate must be above 0, got " + rate);
        }
        if ((duration == null) == (requests <= 0)) {
            throw new IllegalArgumentException("give either a duration or a request count, not both");
        }
        if (deepCheckRatio < 0 || deepCheckRatio > 1) {
            throw new IllegalArgumentException("the deep-check ratio must be within 0..1, got " + deepCheckRatio);
        }
        if (!"http".equalsIgnoreCase(target.getScheme())) {
            throw new IllegalArgumentException("--target must be an http:// URL, got " + target);
        }
        if (streamsPerConnection < 1) {
            throw new IllegalArgumentException("--streams-per-connection must be at least 1, got "
                    + streamsPerConnection);
        }
        if (http == HttpVersion.HTTP1 && streamsPerConnection != 1) {
            throw new IllegalArgumentException("--streams-per-connection " + streamsPerConnection
                    + " needs --http h2c: an HTTP/1.1 connection carries one request at a time");
        }
    }

    /** This driver's part of the run: its clients, rate and counts, its first client's index and its place. */
    public LoadSpec part(int partClients, double partRate, long partRequests, long partWarmupRequests,
                         int partFirstClient, AgentShare place) {
        return new LoadSpec(target, partClients, partRate, schedule, duration, partRequests, warmup, partWarmupRequests,
                thinkTime, connections, timeout, deepCheckRatio, seed, eventLoops, partFirstClient, http,
                streamsPerConnection, place);
    }

    /** The run's clients over every driver process: this one's alone unless the run is split. */
    public int runClients() {
        return share == null ? clients : share.clientCount();
    }

    /** Connections the driver keeps open: one per client over HTTP/1.1, ceil(clients / S) over h2c. */
    public int connectionCount() {
        return (clients + streamsPerConnection - 1) / streamsPerConnection;
    }

    public boolean openModel() {
        return rate > 0;
    }
}
