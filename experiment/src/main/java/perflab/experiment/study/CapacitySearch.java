package perflab.experiment.study;

import perflab.core.config.ExperimentSpec;
import perflab.core.config.Quantities;

import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

/**
 * The rate search of {@link ExperimentSpec.RateSearch}, as a pure function of the trials so far, so that a resumed
 * search asks for the same rates again and finds their runs already made. Up: the rate doubles after every pass
 * until a trial fails or {@code max} passed (RFC 7502 starts low and raises the rate until sessions fail). Then
 * bisection between the highest rate that passed and the lowest that failed until the interval is within the
 * resolution. A rate passes only if every trial at it passed, so a confirmation that fails lowers the ceiling
 * and the bisection goes on below it.
 */
public final class CapacitySearch {
    /** Below this the search stops looking down: no rate the driver can usefully send passed. */
    public static final double LOWEST_RATE = 0.1;

    /** One trial's rate and whether it passed. */
    public record Trial(double rate, boolean passed) {
    }

    /**
     * Where the search stands.
     *
     * @param capacity    the highest rate that passed below every failed one; null: none passed
     * @param firstFailed the lowest rate that failed; null: none failed
     * @param confirmed   the capacity passed at least twice (and never failed)
     * @param stopReason  why the search is over, in words; null while it goes on
     */
    public record Outcome(Double capacity, Double firstFailed, boolean confirmed, String stopReason) {
    }

    private final double start;
    private final double max;
    private final double resolution;
    private final boolean confirm;
    private final int maxTrials;

    CapacitySearch(double start, double max, double resolutionPercent, boolean confirm, int maxTrials) {
        if (!(start > 0) || !(max >= start)) {
            throw new IllegalArgumentException("a rate search goes from a rate above 0 up to a higher one, got "
                    + start + " to " + max);
        }
        this.start = start;
        this.max = max;
        this.resolution = resolutionPercent / 100;
        this.confirm = confirm;
        this.maxTrials = maxTrials;
    }

    public static CapacitySearch of(ExperimentSpec.RateSearch s) {
        double from = Quantities.rate("rate-search: start", s.start());
        double to = s.max() == null ? Double.POSITIVE_INFINITY : Quantities.rate("rate-search: max", s.max());
        return new CapacitySearch(from, to, s.resolutionPercent(), s.confirm(), s.maxTrials());
    }

    /** The next rate to try; empty when the search is over ({@link #outcome} says why). */
    public OptionalDouble next(List<Trial> trials) {
        return step(trials).next;
    }

    public Outcome outcome(List<Trial> trials) {
        Step s = step(trials);
        return new Outcome(s.low, s.high, s.low != null && count(trials, s.low) >= 2, s.reason);
    }

    private record Step(Double low, Double high, OptionalDouble next, String reason) {
    }

    private Step step(List<Trial> trials) {
        Double high = null;
        for (Trial t : trials) {
            if (!t.passed() && (high == null || t.rate() < high)) {
                high = t.rate();
            }
        }
        Double low = null;
        for (Trial t : trials) {
            if (t.passed() && (high == null || t.rate() < high) && passedEveryTime(trials, t.rate())
                    && (low == null || t.rate() > low)) {
                low = t.rate();
            }
        }
        if (trials.isEmpty()) {
            return new Step(null, null, OptionalDouble.of(start), null);
        }
        Double rate;
        String done;
        if (low == null) {
            // nothing passed yet: halve below the lowest failure
            rate = high / 2 >= LOWEST_RATE ? round(high / 2, high) : null;
            done = "no rate passed, down to " + fmt(high);
        } else if (high == null && low < max) {
            rate = Math.min(2 * low, max);
            done = null;
        } else if (high != null && high - low > resolution * low) {
            rate = round((low + high) / 2, high - low);
            done = null;
        } else {
            // converged (or the highest rate allowed passed): confirm the capacity once more
            rate = confirm && count(trials, low) < 2 ? low : null;
            done = high == null ? "the highest rate allowed, " + fmt(max) + ", passed"
                    : String.format(Locale.ROOT, "%s passed and %s failed: within %s%%", fmt(low), fmt(high),
                    fmt(resolution * 100));
        }
        if (rate != null && trials.size() >= maxTrials) {
            return new Step(low, high, OptionalDouble.empty(), "the most trials, " + maxTrials + ", were run");
        }
        return new Step(low, high, rate == null ? OptionalDouble.empty() : OptionalDouble.of(rate), rate == null ? done : null);
    }

    private static boolean passedEveryTime(List<Trial> trials, double rate) {
        return trials.stream().filter(t -> t.rate() == rate).allMatch(Trial::passed);
    }

    private static long count(List<Trial> trials, double rate) {
        return trials.stream().filter(t -> t.rate() == rate).count();
    }

    /**
     * A midpoint rounded to a round number well inside the interval (a tenth of its width), so trials read
     * "450" rather than "448.4375" without landing on either end.
     */
    static double round(double x, double width) {
        double unit = Math.pow(10, Math.floor(Math.log10(width / 10)));
        double r = Math.round(x / unit) * unit;
        return Double.parseDouble(String.format(Locale.ROOT, "%.6g", r));
    }

    /** A rate as a setting's value: "450", "37.5". */
    public static String fmt(double rate) {
        return rate == Math.rint(rate) ? Long.toString((long) rate) : String.format(Locale.ROOT, "%.6g", rate).replaceFirst("\\.?0+$", "");
    }
}
