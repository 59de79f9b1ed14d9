package perflab.core.config;

import java.time.Duration;
import java.util.SplittableRandom;

/**
 * {@code --kill-instance-at random}: a fault's instant drawn from the run's seed, uniform between 20 % and 80 % of the
 * measured window, so that a fail-over study's runs (one per seed, or per repetition of an experiment) put their kills
 * at instants nobody chose, and any one run is repeated exactly from the seed run.json records. The margins keep the kill clear of the window's start,
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

    /**
     * The instant of an experiment's repetition {@code repetition} (1-based): an experiment runs every configuration
     * with one seed, so each repetition draws from the seed moved on by its number (the first, the seed itself, as a
     * lone run with that seed would), and N repetitions kill at N instants. Null when {@code sut} was not asked for a
     * random kill ({@code given} is the setting as written), or its killed instance is started again (a later draw
     * could pass the restart).
     */
    public static RunConfig repetition(RunConfig run, String given, int repetition) {
        RunConfig.Sut sut = run.sut();
        if (!WORD.equals(given) || sut == null || sut.restartInstanceAt() != null || run.load().duration() == null) {
            return null;
        }
        return run.withSut(sut.withKillInstanceAt(in(run.load().duration(), run.load().seed() + repetition - 1)));
    }

    /** The instant into a window of {@code window} for {@code seed}: whole milliseconds, above 0. */
    public static Duration in(Duration window, long seed) {
        double share = new SplittableRandom(seed ^ SALT).nextDouble(FROM, TO);
        return Duration.ofMillis(Math.max(1, Math.round(window.toMillis() * share)));
    }
}
