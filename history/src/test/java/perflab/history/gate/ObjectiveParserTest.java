package perflab.history.gate;

import org.junit.jupiter.api.Test;
import perflab.history.RunFigure;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ObjectiveParserTest {
    @Test
    void readsEachObjectiveInItsFiguresUnit() {
        List<Objective> slo = ObjectiveParser.parse(" p99<5ms, errors=0,throughput>=2e4/s, cpuPerRequest<60us, p999 <= 1.5s ");
        assertEquals(5, slo.size());
        assertEquals(RunFigure.P99, slo.get(0).figure());
        assertEquals(5.0, slo.get(0).bound());
        assertEquals("p99<5ms", slo.get(0).text());
        assertEquals(Objective.Comparison.EQUAL, slo.get(1).comparison());
        assertEquals(20000.0, slo.get(2).bound());
        assertEquals(60.0, slo.get(3).bound(), 1e-9, "µs is the figure's own unit");
        assertEquals(1500.0, slo.get(4).bound(), 1e-9, "1.5 s in ms");
        assertEquals("5 ms", slo.get(0).boundText());
    }

    @Test
    void holdsEachComparisonToItsBound() {
        List<Objective> slo = ObjectiveParser.parse("p99<5, p50<=5, throughput>5, successes>=5, errors=0");
        assertFalse(slo.get(0).met(5));
        assertTrue(slo.get(1).met(5));
        assertFalse(slo.get(2).met(5));
        assertTrue(slo.get(3).met(5));
        assertTrue(slo.get(4).met(0));
        assertFalse(slo.get(4).met(1));
    }

    @Test
    void refusesWhatItCannotReadInOneLine() {
        assertRefused("latency<5ms", "unknown figure 'latency'; known: throughput, ");
        assertRefused("p99<5parsecs", "p99 is a time; give ns, us, ms or s");
        assertRefused("throughput>5ms", "throughput is in req/s, not 'ms'");
        assertRefused("p99 about 5", "is not FIGURE OP NUMBER");
        assertRefused("p99<5ms,", "is not FIGURE OP NUMBER");
        assertRefused(" ", "give objectives");
    }

    private static void assertRefused(String slo, String part) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ObjectiveParser.parse(slo));
        assertTrue(e.getMessage().contains(part), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }
}
