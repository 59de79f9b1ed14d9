package perflab.core.result;

import org.junit.jupiter.api.Test;

import java.util.Locale;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

class DecimalsTest {
    private static void same(double v, int places) {
        assertEquals(String.format(Locale.ROOT, "%." + places + "f", v), Decimals.fixed(v, places), "value " + v);
    }

    @Test
    void writesWhatTheFormatterWritesForTheFiguresATableHolds() {
        SplittableRandom random = new SplittableRandom(36);
        for (int i = 0; i < 200_000; i++) {
            int places = 1 + random.nextInt(3);
            // throughput, percentages, milliseconds, bytes: 0 to a few million, and as many small fractions
            double v = i % 2 == 0 ? random.nextDouble() * Math.pow(10, random.nextInt(8)) : random.nextInt(100_000) / 1000.0;
            same(v, places);
            same(-v, places);
        }
    }

    @Test
    void halvesRoundUpAndASignSurvivesRoundingToZero() {
        for (double v : new double[] {0.125, 0.005, 2.675, 1.005, 0.0, -0.0, -0.001, -0.004999, 1e-9, 123456789.125,
                Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MAX_VALUE, Double.MIN_VALUE}) {
            for (int places = 0; places <= 3; places++) {
                same(v, places);
            }
        }
    }

    @Test
    void paddedWritesWhatAWidthWrites() {
        for (double v : new double[] {0, 1.5, -1.5, 12345.678, 1234567890.5}) {
            assertEquals(String.format(Locale.ROOT, "%9.1f", v), Decimals.padded(v, 1, 9));
            assertEquals(String.format(Locale.ROOT, "%5.0f", v), Decimals.padded(v, 0, 5));
        }
    }

    @Test
    void compactWritesAWholeNumberAsOneAndAnyOtherWithItsDecimals() {
        assertEquals("42", Decimals.compact(42.0, 3));
        assertEquals("-7", Decimals.compact(-7.0, 3));
        assertEquals("0", Decimals.compact(0.0, 3));
        assertEquals("1.500", Decimals.compact(1.5, 3));
        assertEquals("0.001", Decimals.compact(0.0005, 3));
        assertEquals("NaN", Decimals.compact(Double.NaN, 3));
        // from 1e15 up, the decimals' form, as the rows wrote before
        assertEquals(String.format(Locale.ROOT, "%.3f", 1e16), Decimals.compact(1e16, 3));
    }
}
