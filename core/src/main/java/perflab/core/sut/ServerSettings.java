package perflab.core.sut;

import java.util.Locale;
import java.util.Set;

/**
 * The server settings every SUT stack takes, as perflab passes them ({@code --name value}): the same names,
 * defaults and meanings on every stack, so that an experiment can sweep a knob across stacks. How a stack
 * applies each one is its own business (see the workload's documentation).
 *
 * @param serverThreads            maximum threads of the server's pool (Jetty's default: 200); at least 4
 * @param maxRequestBytes          the largest request a stack accepts (a body size, or the XML characters it
 *                                 parses); a larger one gets a SOAP fault
 * @param maxRequestsPerConnection HTTP/1.1 requests served on one connection before it is closed; 0 = unlimited
 * @param accessLog                NCSA access log to {@code accessLogFile}
 * @param serverMetrics            count service requests per HTTP version and their service time; printed on
 *                                 stdout at stop ({@link ServerMetrics})
 * @param http                     {@code http1} or {@code h2c} (HTTP/2 cleartext beside HTTP/1.1)
 */
public record ServerSettings(String host, int port, int serverThreads, int maxRequestBytes,
                             int maxRequestsPerConnection, boolean accessLog, String accessLogFile,
                             boolean serverMetrics, Http http) {

    /** The setting names (without dashes) besides perflab's common ones ({@code host}, {@code port}, ...). */
    public static final Set<String> NAMES = Set.of("server-threads", "max-request-bytes", "max-requests-per-connection",
            "access-log", "access-log-file", "server-metrics", "http");
    public static final int DEFAULT_MAX_REQUEST_BYTES = 10 * 1024 * 1024;

    /** The HTTP versions the connector serves. */
    public enum Http {
        HTTP1, H2C;

        public static Http parse(String value) {
            return switch (value.trim().toLowerCase(Locale.ROOT)) {
                case "http1", "http/1.1", "http1.1" -> HTTP1;
                case "h2c" -> H2C;
                default -> throw new IllegalArgumentException("--http must be http1 or h2c, got '" + value + "'");
            };
        }
    }

    public ServerSettings {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("--port must be 0..65535, got " + port);
        }
        if (serverThreads < 4) {
            throw new IllegalArgumentException("--server-threads must be at least 4 (Jetty needs acceptor and selector threads), got " + serverThreads);
        }
        if (maxRequestBytes < 1024) {
            throw new IllegalArgumentException("--max-request-bytes must be at least 1024, got " + maxRequestBytes);
        }
        if (maxRequestsPerConnection < 0) {
            throw new IllegalArgumentException("--max-requests-per-connection must be 0 (unlimited) or more, got " + maxRequestsPerConnection);
        }
    }

    public static ServerSettings from(SutArgs args) {
        return new ServerSettings(args.get("host", "127.0.0.1"), args.getInt("port", 8080),
                args.getInt("server-threads", 200), args.getInt("max-request-bytes", DEFAULT_MAX_REQUEST_BYTES),
                args.getInt("max-requests-per-connection", 0), args.getBoolean("access-log", false),
                args.get("access-log-file", "access.log"), args.getBoolean("server-metrics", false),
                Http.parse(args.get("http", "http1")));
    }

    /**
     * Whether the {@code served}-th HTTP/1.1 request on a connection is its last ("max persistent requests per
     * connection"): the stack then answers it with {@code Connection: close}.
     */
    public boolean lastRequestOnConnection(int served) {
        return maxRequestsPerConnection > 0 && served >= maxRequestsPerConnection;
    }
}
