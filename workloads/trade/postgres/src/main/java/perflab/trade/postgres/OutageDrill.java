package perflab.trade.postgres;

import perflab.core.config.Quantities;

import java.time.Duration;

/**
 * A planned database outage ({@code --outage AFTER+LENGTH}, e.g. {@code 40s+5s}): {@code after} the first session on
 * the database {@code --outage-watch} names (the SUT's, which it opens once its data is restored, just before it
 * reports ready: so AFTER counts from about the start of the load, whatever the population took), or after the server
 * first answered when none is named, the companion stops it (PostgreSQL's fast shutdown: every session is ended, as when an administrator
 * or a crash takes the database away), and {@code length} later starts it again on the same data and port. The SUT
 * is not told: its pool finds its connections broken, its pages fail while the database is away, and it must serve
 * again by itself once the database is back. That is the failure the trade issue asks perflab to show.
 */
record OutageDrill(Duration after, Duration length, String watch) {
    static final String FLAG = "outage";
    static final String WATCH_FLAG = "outage-watch";
    private static final Duration LONGEST = Duration.ofHours(1);

    OutageDrill {
        if (after.isNegative() || length.isZero() || length.isNegative() || length.compareTo(LONGEST) > 0) {
            throw new IllegalArgumentException("--" + FLAG + ": the outage must start at 0s or later and last "
                    + "between 1ms and 1h");
        }
    }

    /**
     * "40s+5s": 40 s after the first session on {@code watch} (null: after the server is ready), for 5 s; null for an
     * empty value (no drill).
     */
    static OutageDrill parse(String text, String watch) {
        if (text == null || text.isBlank()) {
            return null;
        }
        int plus = text.indexOf('+');
        if (plus < 0) {
            throw new IllegalArgumentException("--" + FLAG + ": '" + text + "' is not AFTER+LENGTH (e.g. 40s+5s: "
                    + "stopped 40 s after it is ready, for 5 s)");
        }
        return new OutageDrill(Quantities.duration("--" + FLAG + " (when)", text.substring(0, plus)),
                Quantities.duration("--" + FLAG + " (how long)", text.substring(plus + 1)),
                watch == null || watch.isBlank() ? null : watch);
    }
}
