package perflab.core.stats;

import org.junit.jupiter.api.Test;
import perflab.core.result.ExperimentResult.Interval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Known values from SciPy 1.17 (scipy.stats.t, scipy.stats.ttest_ind(equal_var=False)). */
class StatisticsTest {
    @Test
    void tQuantilesMatchTheTables() {
        assertEquals(12.70620474, Statistics.tQuantile(0.975, 1), 1e-6);
        assertEquals(4.30265273, Statistics.tQuantile(0.975, 2), 1e-7);
        assertEquals(2.77644511, Statistics.tQuantile(0.975, 4), 1e-7);
        assertEquals(2.22813885, Statistics.tQuantile(0.975, 10), 1e-7);
        assertEquals(2.04227246, Statistics.tQuantile(0.975, 30), 1e-7);
    }

    @Test
    void tCdfMatchesKnownValues() {
        assertEquals(0.94903026, Statistics.tCdf(2.0, 5), 1e-7);
        assertEquals(0.11529193, Statistics.tCdf(-1.5, 3), 1e-7);
        assertEquals(0.61544613, Statistics.tCdf(0.3, 12.5), 1e-7);
        assertEquals(0.5, Statistics.tCdf(0, 7), 1e-12);
    }

    @Test
    void logGammaOfIntegersIsLogFactorial() {
        assertEquals(Math.log(24), Statistics.logGamma(5), 1e-12);
        assertEquals(Math.log(Math.sqrt(Math.PI)), Statistics.logGamma(0.5), 1e-12);
    }

    @Test
    void meanAndStudentInterval() {
        Interval i = Statistics.interval(new double[]{100, 104, 98});
        assertEquals(3, i.n());
        assertEquals(100.667, i.mean(), 1e-3);
        assertEquals(3.055, i.sd(), 1e-3);
        assertEquals(93.078, i.ciLow(), 1e-3);
        assertEquals(108.256, i.ciHigh(), 1e-3);
        Interval one = Statistics.interval(new double[]{42});
        assertEquals(42, one.mean());
        assertNull(one.sd());
        assertNull(one.ciLow());
        assertNull(Statistics.interval(new double[0]));
    }

    @Test
    void welchDetectsARealDifference() {
        Statistics.Welch w = Statistics.welch(new double[]{1012.0, 1030.5, 998.2, 1021.7},
                new double[]{1060.3, 1071.9, 1049.4, 1080.1, 1066.0});
        assertEquals(-5.768795261321994, w.t(), 1e-9);
        assertEquals(5.925417442262227, w.df(), 1e-9);
        assertEquals(0.0012368282658987858, w.p(), 1e-9);
        assertTrue(w.significant());
    }

    @Test
    void welchCallsNoiseNoise() {
        Statistics.Welch w = Statistics.welch(new double[]{10.1, 9.8, 10.3}, new double[]{10.0, 10.4, 9.9});
        assertEquals(-0.15811388300841842, w.t(), 1e-9);
        assertEquals(3.9900249376558596, w.df(), 1e-9);
        assertEquals(0.8820464091712008, w.p(), 1e-9);
        assertFalse(w.significant());
    }

    @Test
    void welchNeedsTwoRunsAndSomeSpread() {
        assertNull(Statistics.welch(new double[]{1}, new double[]{1, 2}));
        assertNull(Statistics.welch(new double[]{5, 5}, new double[]{5, 5}));
    }

    @Test
    void twoGroupsFarApartAreFoundAndNoiseIsNot() {
        assertEquals(2, Statistics.twoGroups(new double[] {4000, 4150, 13900, 14600}));
        assertEquals(3, Statistics.twoGroups(new double[] {4000, 4100, 4200, 15000}));
        assertEquals(-1, Statistics.twoGroups(new double[] {1000, 1004, 1009, 1012}), "runs that agree");
        assertEquals(-1, Statistics.twoGroups(new double[] {1000, 1001, 1030}), "a gap of 3 %: an outlier, not two behaviours");
        assertEquals(-1, Statistics.twoGroups(new double[] {900, 1000, 1100, 1200, 1300}), "an even spread");
        assertEquals(-1, Statistics.twoGroups(new double[] {1000, 2000}), "two values are judged by the caller");
        // an open model at a fixed rate: every run the same throughput (voicemail-cluster.yaml's 150.6 req/s x 3)
        assertEquals(-1, Statistics.twoGroups(new double[] {150.6, 150.6, 150.6}), "identical runs");
    }
}
