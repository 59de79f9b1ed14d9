package perflab.history.gate;

import perflab.history.RunFigure;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code --slo "p99<5ms, errors=0, throughput>20000, cpuPerRequest<60us"}: objectives separated by commas, each a
 * figure's name ({@link RunFigure}), a comparison ({@code < <= > >= =}) and a number with an optional unit that must
 * suit the figure (a time for latencies and CPU, % for shares). A name or unit that is not known is refused, naming
 * the ones that are: a typo never makes a gate that silently passes.
 */
public final class ObjectiveParser {
    private static final Pattern TERM = Pattern.compile("\\s*([A-Za-z][A-Za-z0-9]*)\\s*(<=|>=|<|>|==?)\\s*"
            + "([-+]?[0-9]*\\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\\s*([A-Za-zµ/%-]*)\\s*");
    /** Units of time, in milliseconds. */
    private static final Map<String, Double> TIME_MS = Map.of("ns", 1e-6, "us", 1e-3, "µs", 1e-3, "ms", 1.0, "s", 1000.0);
    /** Figures whose unit is a time, and the number of milliseconds in it. */
    private static final Map<String, Double> TIME_UNITS = Map.of("ms", 1.0, "µs", 1e-3, "s", 1000.0);

    private ObjectiveParser() {
    }

    public static List<Objective> parse(String slo) {
        if (slo == null || slo.isBlank()) {
            throw new IllegalArgumentException("--slo: give objectives such as \"p99<5ms, errors=0\"");
        }
        List<Objective> out = new ArrayList<>();
        for (String term : slo.split(",", -1)) { // -1: a stray comma is an empty objective, refused, not dropped
            out.add(term(term));
        }
        return out;
    }

    private static Objective term(String term) {
        Matcher m = TERM.matcher(term);
        if (!m.matches()) {
            throw new IllegalArgumentException("--slo: '" + term.trim() + "' is not FIGURE OP NUMBER[UNIT] (e.g. p99<5ms, "
                    + "errors=0); OP is one of < <= > >= =");
        }
        String name = m.group(1);
        RunFigure figure = RunFigure.named(name).orElseThrow(() -> new IllegalArgumentException("--slo: unknown figure '"
                + name + "'; known: " + RunFigure.names()));
        Objective.Comparison comparison = switch (m.group(2)) {
            case "<" -> Objective.Comparison.LESS;
            case "<=" -> Objective.Comparison.AT_MOST;
            case ">" -> Objective.Comparison.MORE;
            case ">=" -> Objective.Comparison.AT_LEAST;
            default -> Objective.Comparison.EQUAL;
        };
        double value = Double.parseDouble(m.group(3));
        return new Objective(figure, comparison, inFigureUnit(figure, value, m.group(4), term.trim()), term.trim());
    }

    /** {@code value unit} in the figure's own unit. */
    private static double inFigureUnit(RunFigure figure, double value, String unit, String term) {
        String u = unit.toLowerCase(Locale.ROOT).equals("us") ? "us" : unit;
        if (u.isEmpty()) {
            return value; // the figure's own unit
        }
        Double figureMs = TIME_UNITS.get(figure.unit());
        if (figureMs != null) {
            Double givenMs = TIME_MS.get(u);
            if (givenMs == null) {
                throw new IllegalArgumentException("--slo: '" + term + "': " + figure.key() + " is a time; give ns, us, "
                        + "ms or s, or no unit for " + figure.unit());
            }
            return value * givenMs / figureMs;
        }
        if (u.equals(figure.unit()) || (u.equals("/s") && figure.unit().equals("req/s"))) {
            return value;
        }
        throw new IllegalArgumentException("--slo: '" + term + "': " + figure.key() + " is in "
                + (figure.unit().isEmpty() ? "no unit" : figure.unit()) + ", not '" + unit + "'");
    }
}
