package perflab.driver;

import org.HdrHistogram.Histogram;
import perflab.core.traffic.ErrorKind;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;

/** Adds per-kind figures of several driver processes (or intervals) exactly, keeping the kinds' first-seen order. */
final class KindSum {
    private final Map<String, Histogram> latency = new LinkedHashMap<>();
    private final Map<String, Long> successes = new LinkedHashMap<>();
    private final Map<String, Map<ErrorKind, Long>> errors = new LinkedHashMap<>();

    void add(Map<String, KindFigures> byKind) {
        byKind.forEach((k, f) -> {
            latency.computeIfAbsent(k, x -> new Histogram(LoopStats.DIGITS)).add(f.latency());
            successes.merge(k, f.successes(), Long::sum);
            Map<ErrorKind, Long> e = errors.computeIfAbsent(k, x -> new EnumMap<>(ErrorKind.class));
            f.errors().forEach((ek, v) -> e.merge(ek, v, Long::sum));
        });
    }

    Map<String, KindFigures> sum() {
        Map<String, KindFigures> byKind = new LinkedHashMap<>();
        latency.forEach((k, h) -> byKind.put(k, new KindFigures(successes.get(k), errors.get(k), h)));
        return byKind;
    }

    /** Every error kind at zero, to add into. */
    static Map<ErrorKind, Long> noErrors() {
        Map<ErrorKind, Long> errors = new EnumMap<>(ErrorKind.class);
        for (ErrorKind k : ErrorKind.values()) {
            errors.put(k, 0L);
        }
        return errors;
    }
}
