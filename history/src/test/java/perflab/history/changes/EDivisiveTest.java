package perflab.history.changes;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The method's error rates on seeded series at this machine's noise: repeats of one configuration vary by about 2-3 %
 * (coefficient of variation of throughput, BENCHMARKS' interleaved repeats).
 */
class EDivisiveTest {
    private static final double CV = 0.03;

    private static double[] series(SplittableRandom random, int n, int stepAt, double step, boolean longTailed) {
        double[] xs = new double[n];
        for (int i = 0; i < n; i++) {
            double level = 1000 * (i >= stepAt ? 1 + step : 1);
            double noise = gaussian(random) * CV;
            if (longTailed && random.nextDouble() < 0.05) {
                noise -= 0.10 + 0.10 * random.nextDouble(); // now and then a run disturbed by its neighbours
            }
            xs[i] = level * (1 + noise);
        }
        return xs;
    }

    private static double gaussian(SplittableRandom r) {
        return Math.sqrt(-2 * Math.log(1 - r.nextDouble())) * Math.cos(2 * Math.PI * r.nextDouble());
    }

    @Test
    void findsNoChangeInMostSeriesWithoutOne() {
        int series = 400;
        for (boolean tails : new boolean[]{false, true}) {
            SplittableRandom random = new SplittableRandom(41);
            int withFalseChange = 0;
            for (int s = 0; s < series; s++) {
                if (!EDivisive.find(series(random, 40, Integer.MAX_VALUE, 0, tails), EDivisive.Settings.DEFAULT).isEmpty()) {
                    withFalseChange++;
                }
            }
            double rate = (double) withFalseChange / series;
            System.out.printf("e-divisive: false changes in %.1f %% of %d series of 40 runs without one (%s noise)%n",
                    rate * 100, series, tails ? "long-tailed" : "normal");
            assertTrue(rate <= 0.03, "false-positive rate " + rate + (tails ? " with long tails" : ""));
        }
    }

    @Test
    void findsAPlantedStepWhereItIs() {
        for (double step : new double[]{-0.20, -0.10, 0.10}) {
            SplittableRandom random = new SplittableRandom(7);
            int found = 0;
            int exact = 0;
            int trials = 100;
            for (int s = 0; s < trials; s++) {
                List<ChangePoint> changes = EDivisive.find(series(random, 40, 25, step, false), EDivisive.Settings.DEFAULT);
                ChangePoint near = changes.stream().filter(c -> Math.abs(c.index() - 25) <= 2).findFirst().orElse(null);
                if (near != null) {
                    found++;
                    exact += near.index() == 25 ? 1 : 0;
                    assertEquals(step * 100, near.changePercent(), 4, "the change's size");
                    assertTrue(near.low() <= step * 100 + 4 && near.high() >= step * 100 - 4, "its interval");
                }
            }
            System.out.printf("e-divisive: a %+.0f %% step found in %d of %d series (at the very run in %d)%n",
                    step * 100, found, trials, exact);
            assertTrue(found >= 95, step + ": found " + found + " of " + trials);
        }
    }

    @Test
    void aFivePercentStepInThreePercentNoiseIsFoundInMostSeries() {
        SplittableRandom random = new SplittableRandom(13);
        int found = 0;
        for (int s = 0; s < 100; s++) {
            List<ChangePoint> changes = EDivisive.find(series(random, 40, 25, -0.05, false), EDivisive.Settings.DEFAULT);
            found += changes.stream().anyMatch(c -> Math.abs(c.index() - 25) <= 2) ? 1 : 0;
        }
        System.out.printf("e-divisive: a -5 %% step (%.0f %% noise) found in %d of 100 series%n", CV * 100, found);
        assertTrue(found >= 60, "found " + found);
    }

    @Test
    void aSmallStepBelowTheMinimumEffectIsNoChange() {
        double[] xs = new double[40];
        for (int i = 0; i < xs.length; i++) {
            xs[i] = i < 20 ? 1000 : 1010; // a sure but 1 % step: not worth a flag
        }
        assertTrue(EDivisive.find(xs, EDivisive.Settings.DEFAULT).isEmpty());
        xs[25] = 1010;
        for (int i = 20; i < xs.length; i++) {
            xs[i] = 1100;
        }
        List<ChangePoint> changes = EDivisive.find(xs, EDivisive.Settings.DEFAULT);
        assertEquals(1, changes.size());
        assertEquals(20, changes.get(0).index());
        assertEquals(10.0, changes.get(0).changePercent(), 1e-9);
    }

    @Test
    void findsTwoChangesAndNeedsThreeRunsEachSide() {
        SplittableRandom random = new SplittableRandom(3);
        double[] xs = new double[60];
        for (int i = 0; i < xs.length; i++) {
            double level = i < 20 ? 1000 : i < 40 ? 800 : 1000;
            xs[i] = level * (1 + gaussian(random) * 0.01);
        }
        List<ChangePoint> changes = EDivisive.find(xs, EDivisive.Settings.DEFAULT);
        assertEquals(List.of(20, 40), changes.stream().map(ChangePoint::index).toList());
        assertTrue(changes.get(0).changePercent() < -15 && changes.get(1).changePercent() > 20);
        // a drop in the last two runs is not yet a change: too few runs to tell it from noise
        double[] tail = {100, 100, 101, 99, 100, 101, 99, 100, 80, 80};
        assertTrue(EDivisive.find(tail, EDivisive.Settings.DEFAULT).isEmpty());
        assertEquals(-1, EDivisive.bestSplit(new double[]{1, 2, 3, 4, 5}, 0, 5, 3));
    }

    @Test
    void theIncrementalStatisticEqualsTheDirectOne() {
        SplittableRandom random = new SplittableRandom(11);
        double[] xs = series(random, 23, 9, 0.3, true);
        int best = EDivisive.bestSplit(xs, 2, 21, 3);
        double bestQ = Double.NEGATIVE_INFINITY;
        int direct = -1;
        for (int at = 5; at <= 18; at++) {
            double wl = 0, wr = 0, across = 0;
            for (int i = 2; i < 21; i++) {
                for (int j = i + 1; j < 21; j++) {
                    double d = Math.abs(xs[i] - xs[j]);
                    if (j < at) {
                        wl += d;
                    } else if (i >= at) {
                        wr += d;
                    } else {
                        across += d;
                    }
                }
            }
            double q = EDivisive.statistic(at - 2, 21 - at, wl, wr, across);
            if (q > bestQ) {
                bestQ = q;
                direct = at;
            }
        }
        assertEquals(direct, best);
    }
}
