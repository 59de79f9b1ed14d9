package perflab.core.config;

import java.time.Duration;
import java.util.SplittableRandom;

/**
 * {@code --kill-instance-at random}: a fault's instant drawn from the run's seed, uniform between 20 % and 80 % of the
 * measured window, so that a fail-over study's runs (one per seed) put their kills at instants nobody chose, and any
 * one run is repeated exactly from the seed run.json records. The margins keep the kill clear of the window's start,
 * where the load is still the warm-up's, and leave time after it for the take-over to show.
 */
public final class RandomInstant {
    /** The word that asks for it. */
    public static final String WORD = "random";
    public static final double FROM = 0.2;
    public static final double TO = 0.8;
    /** Mixed into the seed: the draw is not the first number the traffic's own generator gives for the same seed. */
    private static final long SALT = 0x6b696c6c2d6174L;

    private RandomInstant() {
    }

    /** The instant into a window of {@code window} for {@code seed}: whole milliseconds, above 0. */
    public static Duration in(Duration window, long seed) {
        double share = new SplittableRandom(seed ^ SALT).nextDouble(FROM, TO);
        return Duration.ofMillis(Math.max(1, Math.round(window.toMillis() * share)));
    }
}
