package perflab.core.result;

import com.fasterxml.jackson.annotation.JsonCreator;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A load source's figures over the measured window: summary.json's {@code loads.<name>}, in the shape every kind of
 * load source shares. Only the source's periods that lie wholly inside the window count; {@code seconds} is the span
 * they cover, and every rate is divided by it, not by the window's length.
 *
 * @param kind      the load source's kind ({@link perflab.core.load.LoadSourceKind#name})
 * @param unit      what it counts, singular ("call")
 * @param started   units it started in the window
 * @param succeeded units that ended well in the window
 * @param failed    units that failed in the window
 * @param figures   the kind's own figures (numbers, strings, maps of them), documented with the kind
 * @param line      the window in one line as the kind tells it, for the console and the report; null: made from the
 *                  counts above
 * @param note      null, or why the figures are empty or partial
 */
public record LoadFigures(String kind, String unit, long fromEpochMicros, long toEpochMicros, double seconds,
                          int periods, long started, long succeeded, long failed, Map<String, Object> figures,
                          String line, String note) {
    public LoadFigures {
        figures = figures == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(figures));
    }

    /** Units started per second of the periods counted. */
    public double perSecond() {
        return seconds > 0 ? started / seconds : 0;
    }

    /** The window in one line: the kind's own, or one made from the counts. */
    public String describe() {
        if (line != null) {
            return line;
        }
        return String.format(java.util.Locale.ROOT, "%d %ss in %.1f s (%.2f/s), %d ok, %d failed%s", started, unit,
                seconds, perSecond(), succeeded, failed, note == null ? "" : " (" + note + ")");
    }

    /**
     * Reads either shape: this one, or that of summaries written before load sources were plugins, when a load was
     * always a SIPp and its figures were the entry itself (callsCreated, successfulCalls, failedCalls, ...): those
     * become this shape with kind {@code sipp}, unit {@code call} and the old entry as the kind's figures.
     */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    static LoadFigures read(Map<String, Object> json) {
        if (json.containsKey("kind")) {
            @SuppressWarnings("unchecked")
            Map<String, Object> own = (Map<String, Object>) json.getOrDefault("figures", Map.of());
            return new LoadFigures(text(json, "kind"), text(json, "unit"), whole(json, "fromEpochMicros"),
                    whole(json, "toEpochMicros"), real(json, "seconds"), (int) whole(json, "periods"),
                    whole(json, "started"), whole(json, "succeeded"), whole(json, "failed"), own, text(json, "line"),
                    text(json, "note"));
        }
        return new LoadFigures("sipp", "call", whole(json, "fromEpochMicros"), whole(json, "toEpochMicros"),
                real(json, "seconds"), (int) whole(json, "periods"), whole(json, "callsCreated"),
                whole(json, "successfulCalls"), whole(json, "failedCalls"), json, null, text(json, "note"));
    }

    private static String text(Map<String, Object> json, String key) {
        Object v = json.get(key);
        return v == null ? null : v.toString();
    }

    private static long whole(Map<String, Object> json, String key) {
        return json.get(key) instanceof Number n ? n.longValue() : 0;
    }

    private static double real(Map<String, Object> json, String key) {
        return json.get(key) instanceof Number n ? n.doubleValue() : 0;
    }
}
