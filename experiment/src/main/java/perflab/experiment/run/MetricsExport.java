package perflab.experiment.run;

import java.net.InetSocketAddress;

/**
 * {@code --metrics-export prometheus=[HOST:]PORT}: where a run serves its live seconds for a Prometheus server to
 * scrape, beside the server's own dashboards. On loopback unless a host is given: a run's figures are not for every
 * network by default.
 */
public record MetricsExport(String host, int port) {
    public static final String PROMETHEUS = "prometheus=";

    /** The export {@code spec} asks for; a bad one is refused in one line. */
    public static MetricsExport parse(String spec) {
        String s = spec == null ? "" : spec.trim();
        if (!s.startsWith(PROMETHEUS)) {
            throw new IllegalArgumentException("--metrics-export " + spec + ": give prometheus=PORT or "
                    + "prometheus=HOST:PORT (a Prometheus server scrapes /metrics there)");
        }
        String where = s.substring(PROMETHEUS.length());
        int colon = where.lastIndexOf(':');
        String host = colon < 0 ? "127.0.0.1" : where.substring(0, colon);
        String port = colon < 0 ? where : where.substring(colon + 1);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1); // [::1]
        }
        int p;
        try {
            p = Integer.parseInt(port);
        } catch (NumberFormatException e) {
            p = -1;
        }
        if (p < 0 || p > 65535 || host.isBlank()) {
            throw new IllegalArgumentException("--metrics-export " + spec + ": give prometheus=PORT (0-65535, 0 for any "
                    + "free port) or prometheus=HOST:PORT");
        }
        return new MetricsExport(host, p);
    }

    InetSocketAddress address() {
        return new InetSocketAddress(host, port);
    }
}
