package perflab.driver;

import java.util.SplittableRandom;

/**
 * The intended send times of one event loop's share of the open-model rate. Each loop runs its own schedule
 * at rate x (its clients / all clients): the sum of independent Poisson processes is a Poisson process of
 * the total rate, and constant schedules are staggered by loop so the loops do not fire in step. Times are
 * kept as a double offset from the start so that a long run does not accumulate rounding drift.
 */
final class OpenModelSchedule implements SendSchedule {
    private final long startNanos;
    private final double meanGapNanos;
    private final SplittableRandom random; // null for a constant schedule
    private double nextOffsetNanos;

    OpenModelSchedule(LoadSpec.Schedule kind, double ratePerSecond, long seed, long startNanos, double stagger) {
        if (!(ratePerSecond > 0)) {
            throw new IllegalArgumentException("an open-model schedule needs a rate above 0");
        }
        this.startNanos = startNanos;
        this.meanGapNanos = 1e9 / ratePerSecond;
        this.random = kind == LoadSpec.Schedule.POISSON ? new SplittableRandom(seed) : null;
        this.nextOffsetNanos = random == null ? stagger * meanGapNanos : gap();
    }

    @Override
    public long next() {
        return startNanos + (long) nextOffsetNanos;
    }

    @Override
    public void advance() {
        nextOffsetNanos += random == null ? meanGapNanos : gap();
    }

    private double gap() {
        // Exponential inter-arrival: -ln(U) * mean, U in (0, 1].
        return -Math.log(1.0 - random.nextDouble()) * meanGapNanos;
    }
}
