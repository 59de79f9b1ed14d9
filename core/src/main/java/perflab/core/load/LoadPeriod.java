package perflab.core.load;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One period of a load source's own statistics (about a second): what happened between its start and its end.
 *
 * @param values by {@link LoadColumn} name; a column without a value in the period is absent
 */
public record LoadPeriod(long startEpochMicros, long endEpochMicros, Map<String, Double> values) {
    public LoadPeriod {
        values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    /** Whether one of {@code columns} that counts trouble ({@link LoadColumn#trouble}) is above 0 in this period. */
    public boolean troubled(java.util.List<LoadColumn> columns) {
        for (LoadColumn c : columns) {
            Double v = values.get(c.name());
            if (c.trouble() && v != null && v > 0) {
                return true;
            }
        }
        return false;
    }

    /** The period's end in epoch milliseconds: a timeseries row's time is its end. */
    public long epochMs() {
        return endEpochMicros / 1000;
    }

    /** True when the whole period lies inside [start, end]: the periods a window's figures are made of. */
    public boolean inside(Instant start, Instant end) {
        return startEpochMicros >= micros(start) && endEpochMicros <= micros(end);
    }

    public static long micros(Instant t) {
        return Math.multiplyExact(t.getEpochSecond(), 1_000_000L) + t.getNano() / 1000;
    }
}
