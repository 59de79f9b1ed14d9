package perflab.report;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.ArrayList;
import java.util.List;

/**
 * What one chart of a report shows, as data: axes, series, shaded bands. The page's script (charts.js) turns it
 * into a Chart.js chart; serialised into the page as JSON.
 *
 * <p>Axis scales: {@code linear}, {@code log}, {@code category} (bars per configuration: {@link #categories})
 * and {@code percentile} (a log axis of 1 / (1 - p), labelled 90%, 99%, 99.9%...: the HdrHistogram percentile
 * spectrum's axis).
 */
@JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY, getterVisibility = JsonAutoDetect.Visibility.NONE,
        isGetterVisibility = JsonAutoDetect.Visibility.NONE)
@JsonInclude(JsonInclude.Include.NON_NULL)
public final class Chart {
    private final String id;
    private final String title;
    private String note;
    private Axis x = new Axis("", "linear");
    private Axis y = new Axis("", "linear");
    private Axis y2;
    private List<String> categories;
    private boolean stacked;
    private final List<Series> series = new ArrayList<>();
    private final List<Band> bands = new ArrayList<>();

    /** @param id unique in its page (letters, digits, dashes) */
    public Chart(String id, String title) {
        if (!id.matches("[A-Za-z0-9-]+")) {
            throw new IllegalArgumentException("chart id must be letters, digits and dashes: " + id);
        }
        this.id = id;
        this.title = title;
    }

    public record Axis(String label, String scale) {
    }

    /** An x range to shade and name, e.g. the warm-up. */
    public record Band(double from, double to, String label) {
    }

    public String id() {
        return id;
    }

    public String title() {
        return title;
    }

    public String note() {
        return note;
    }

    public List<Series> series() {
        return List.copyOf(series);
    }

    /** A sentence under the title saying how to read the chart. */
    public Chart note(String note) {
        this.note = note;
        return this;
    }

    public Chart x(String label, String scale) {
        this.x = new Axis(label, scale);
        return this;
    }

    public Chart y(String label, String scale) {
        this.y = new Axis(label, scale);
        return this;
    }

    /** A second y axis, on the right; series opt in with {@link Series#onSecondAxis()}. */
    public Chart y2(String label, String scale) {
        this.y2 = new Axis(label, scale);
        return this;
    }

    /** Category x axis: one slot per name (bars per configuration); series give y only. */
    public Chart categories(List<String> names) {
        this.categories = List.copyOf(names);
        this.x = new Axis(x.label(), "category");
        return this;
    }

    public Chart stacked() {
        this.stacked = true;
        return this;
    }

    public Chart band(double from, double to, String label) {
        bands.add(new Band(from, to, label));
        return this;
    }

    public Chart add(Series s) {
        series.add(s);
        return this;
    }

    /** How many points the chart has to draw (all series). */
    public int points() {
        int n = 0;
        for (Series s : series) {
            for (Double v : s.y) {
                if (v != null) {
                    n++;
                }
            }
        }
        return n;
    }

    /** One line, set of bars or scatter of points. Missing values (NaN) become gaps. */
    @JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY, getterVisibility = JsonAutoDetect.Visibility.NONE,
            isGetterVisibility = JsonAutoDetect.Visibility.NONE)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public static final class Series {
        private final String name;
        private final String type;
        private final double[] x;
        private final Double[] y;
        private Double[][] errors;
        private String axis;
        private String color;
        private Boolean dashed;
        private Boolean stepped;
        private Boolean points;

        private Series(String name, String type, double[] x, double[] y) {
            if (x != null && x.length != y.length) {
                throw new IllegalArgumentException("series " + name + ": " + x.length + " x values, " + y.length + " y values");
            }
            this.name = name;
            this.type = type;
            this.x = x;
            this.y = boxed(y);
        }

        public static Series line(String name, double[] x, double[] y) {
            return new Series(name, "line", x, y);
        }

        public static Series scatter(String name, double[] x, double[] y) {
            return new Series(name, "scatter", x, y);
        }

        /** Bars over {@link Chart#categories}, or at x values when {@code x} is given. */
        public static Series bars(String name, double[] x, double[] y) {
            return new Series(name, "bar", x, y);
        }

        /** Error bars: for each value, its low and high end (e.g. a 95% interval); NaN for none. */
        public Series errors(double[] low, double[] high) {
            if (low.length != y.length || high.length != y.length) {
                throw new IllegalArgumentException("series " + name + ": error bars need one low and high per value");
            }
            Double[][] e = new Double[y.length][];
            for (int i = 0; i < y.length; i++) {
                e[i] = Double.isFinite(low[i]) && Double.isFinite(high[i]) ? new Double[]{low[i], high[i]} : null;
            }
            this.errors = e;
            return this;
        }

        public Series onSecondAxis() {
            this.axis = "y2";
            return this;
        }

        /** A CSS colour; without one the page's palette gives one by the series' place. */
        public Series color(String css) {
            this.color = css;
            return this;
        }

        public Series dashed() {
            this.dashed = true;
            return this;
        }

        public Series stepped() {
            this.stepped = true;
            return this;
        }

        /** Draw a marker at each point (lines have none by default). */
        public Series withPoints() {
            this.points = true;
            return this;
        }

        public String name() {
            return name;
        }

        private static Double[] boxed(double[] v) {
            Double[] out = new Double[v.length];
            for (int i = 0; i < v.length; i++) {
                out[i] = Double.isFinite(v[i]) ? v[i] : null;
            }
            return out;
        }
    }
}
