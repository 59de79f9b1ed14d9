package perflab.driver;

import org.HdrHistogram.Histogram;
import perflab.core.traffic.ErrorKind;

import java.util.Map;

/**
 * One request kind's figures in a measured window or an interval: successes, errors by kind and the successes'
 * latency (microseconds, from the intended send time as the totals'). The kinds of a run add up to its totals.
 */
public record KindFigures(long successes, Map<ErrorKind, Long> errors, Histogram latency) {
    public long errorCount() {
        return errors.values().stream().mapToLong(Long::longValue).sum();
    }

    public long requests() {
        return successes + errorCount();
    }
}
