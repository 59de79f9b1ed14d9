package perflab.driver;

/**
 * How long a connection lives: {@code --keepalive on} (persistent), {@code off} (a new connection per
 * request) or {@code N} (close after N requests).
 *
 * @param requestsPerConnection 0 = unlimited (persistent), 1 = one request per connection, N = close after N
 */
public record ConnectionPolicy(int requestsPerConnection) {
    public static final ConnectionPolicy PERSISTENT = new ConnectionPolicy(0);
    public static final ConnectionPolicy PER_REQUEST = new ConnectionPolicy(1);

    public ConnectionPolicy {
        if (requestsPerConnection < 0) {
            throw new IllegalArgumentException("--keepalive N needs N >= 1, got " + requestsPerConnection);
        }
    }

    public static ConnectionPolicy parse(String text) {
        String t = text.trim().toLowerCase();
        return switch (t) {
            case "on", "true", "persistent" -> PERSISTENT;
            case "off", "false", "close" -> PER_REQUEST;
            default -> {
                try {
                    int n = Integer.parseInt(t);
                    if (n < 1) {
                        throw new NumberFormatException();
                    }
                    yield new ConnectionPolicy(n);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("--keepalive: '" + text + "' is not on, off or a number of requests >= 1");
                }
            }
        };
    }

    /** True when the request number {@code n} (1-based) on a connection is its last one. */
    public boolean lastOnConnection(long n) {
        return requestsPerConnection > 0 && n >= requestsPerConnection;
    }

    @Override
    public String toString() {
        return requestsPerConnection == 0 ? "on" : requestsPerConnection == 1 ? "off" : Integer.toString(requestsPerConnection);
    }
}
