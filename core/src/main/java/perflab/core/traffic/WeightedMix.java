package perflab.core.traffic;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Picks one of several choices (request kinds, scenario steps) in proportion to their weights. Immutable and
 * shared by sessions; each session picks with its own seeded {@link SplittableRandom} (repeatable runs), and a
 * pick allocates nothing.
 */
public final class WeightedMix<T> {
    private final List<T> choices;
    /** Cumulative weights, the last one 1. */
    private final double[] cumulative;

    private WeightedMix(List<T> choices, double[] cumulative) {
        this.choices = List.copyOf(choices);
        this.cumulative = cumulative;
    }

    public static <T> Builder<T> builder() {
        return new Builder<>();
    }

    public T pick(SplittableRandom random) {
        double x = random.nextDouble();
        double[] c = cumulative;
        for (int i = 0; i < c.length - 1; i++) {
            if (x < c[i]) {
                return choices.get(i);
            }
        }
        return choices.get(c.length - 1);
    }

    public List<T> choices() {
        return choices;
    }

    public static final class Builder<T> {
        private final List<T> choices = new ArrayList<>();
        private final List<Double> weights = new ArrayList<>();

        /** Adds a choice with a weight (any positive number; weights need not add up to anything). */
        public Builder<T> add(T choice, double weight) {
            if (!(weight > 0) || Double.isInfinite(weight)) {
                throw new IllegalArgumentException("weight of " + choice + " must be a positive number, got " + weight);
            }
            choices.add(choice);
            weights.add(weight);
            return this;
        }

        public WeightedMix<T> build() {
            if (choices.isEmpty()) {
                throw new IllegalArgumentException("a weighted mix needs at least one choice");
            }
            double total = weights.stream().mapToDouble(Double::doubleValue).sum();
            double[] cumulative = new double[choices.size()];
            double sum = 0;
            for (int i = 0; i < cumulative.length; i++) {
                sum += weights.get(i);
                cumulative[i] = sum / total;
            }
            cumulative[cumulative.length - 1] = 1.0;
            return new WeightedMix<>(choices, cumulative);
        }
    }
}
