package perflab.experiment.study;

import perflab.core.result.ExperimentResult;
import perflab.core.result.ExperimentResult.Configuration;
import perflab.core.result.ExperimentResult.Interval;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * When an adaptive experiment ({@code --repeat auto:MAX}) has repeated enough: judged after each complete round
 * of interleaved runs, on the configurations' 95 % intervals of mean throughput. Pure, so each rule is tested on
 * its own.
 */
final class AdaptiveRepeat {
    /** Rounds before any judgement: Welch's test and the t interval need spread from a few runs each. */
    static final int MIN_ROUNDS = 3;
    /** {@code repeat: auto} without a maximum. */
    static final int DEFAULT_MAX_ROUNDS = 10;

    private AdaptiveRepeat() {
    }

    /**
     * Why the experiment may stop after {@code round} rounds, or null to go on.
     *
     * @param maxRounds        the most rounds it may run
     * @param precisionPercent every interval's half-width within this share of its mean ends it too
     */
    static String stopReason(ExperimentResult result, int round, int maxRounds, double precisionPercent) {
        List<Configuration> measured = result.configurations().stream()
                .filter(c -> c.stats() != null && c.stats().throughput() != null && c.stats().throughput().ciLow() != null)
                .toList();
        if (round >= MIN_ROUNDS && !measured.isEmpty()) {
            // the leaders among those that qualify for best, when any does
            List<Configuration> ranked = measured.stream().filter(Configuration::meetsObjective).toList();
            if (ranked.size() < 2) {
                ranked = measured;
            }
            ranked = ranked.stream().sorted(Comparator.comparingDouble((Configuration c) -> c.stats().throughput().mean())
                    .reversed()).toList();
            if (ranked.size() >= 2) {
                Interval first = ranked.get(0).stats().throughput();
                Interval second = ranked.get(1).stats().throughput();
                if (first.ciLow() > second.ciHigh()) {
                    return String.format(Locale.ROOT, "after %d rounds the leaders' 95 %% intervals separated (%s above %s)",
                            round, ranked.get(0).name(), ranked.get(1).name());
                }
            }
            boolean allNarrow = measured.size() == result.configurations().size() && measured.stream().allMatch(c -> {
                Interval t = c.stats().throughput();
                return (t.ciHigh() - t.ciLow()) / 2 <= precisionPercent / 100 * Math.abs(t.mean());
            });
            if (allNarrow) {
                return String.format(Locale.ROOT, "after %d rounds every 95 %% interval was within ±%s %% of its mean",
                        round, ExperimentAnalysis.trim(precisionPercent));
            }
        }
        if (round >= maxRounds) {
            return String.format(Locale.ROOT, "reached the maximum of %d rounds without a clear answer", maxRounds);
        }
        return null;
    }
}
