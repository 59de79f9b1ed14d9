package perflab.agents;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import perflab.core.traffic.ErrorKind;
import perflab.driver.Interval;
import perflab.driver.KindFigures;
import perflab.driver.Phase;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class IntervalMergeTest {
    static Interval interval(Phase phase, long start, long successes, long timeouts, long... latenciesMicros) {
        Histogram h = new Histogram(3);
        for (long v : latenciesMicros) {
            h.recordValue(v);
        }
        Map<ErrorKind, Long> errors = new EnumMap<>(ErrorKind.class);
        for (ErrorKind k : ErrorKind.values()) {
            errors.put(k, 0L);
        }
        errors.put(ErrorKind.TIMEOUT, timeouts);
        return new Interval(phase, start, start + 1000, 1.0, successes, errors, h, h.copy(), new Histogram(3),
                new Histogram(3), 10 * successes, 20 * successes, Map.of("echo", new KindFigures(successes, errors, h.copy())));
    }

    @Test
    void intervalsAreAddedByIndexOnceEveryAgentHasReportedThem() {
        List<Interval> out = new ArrayList<>();
        IntervalMerge merge = new IntervalMerge(2, out::add);
        merge.offer(0, 0, interval(Phase.WARMUP, 1000, 5, 0, 100));
        merge.offer(0, 0, interval(Phase.MEASURE, 2000, 10, 1, 200, 300));
        assertEquals(0, out.size(), "agent 2 has said nothing yet");
        // agent 2's clock is 7 ms behind: the index, not the time, pairs the intervals
        merge.offer(1, 0, interval(Phase.WARMUP, 993, 6, 0, 400));
        assertEquals(1, out.size());
        assertEquals(11, out.get(0).successes());
        assertEquals(993, out.get(0).startEpochMs());
        assertEquals(1.0, out.get(0).seconds(), 1e-9, "a second long, not stretched by the 7 ms between the agents' cuts");
        merge.offer(1, 0, interval(Phase.MEASURE, 1993, 20, 2, 500));
        assertEquals(2, out.size());
        Interval m = out.get(1);
        assertEquals(Phase.MEASURE, m.phase());
        assertEquals(30, m.successes());
        assertEquals(3, m.errors().get(ErrorKind.TIMEOUT));
        assertEquals(3, m.latency().getTotalCount());
        assertEquals(500, m.latency().getMaxValue(), 1);
        assertEquals(30, m.byKind().get("echo").successes());
        assertEquals(300, m.bytesSent());
        assertEquals(33, merge.mergedMeasuredRequests());
        assertEquals(11, merge.measuredRequests(0));
        assertEquals(22, merge.measuredRequests(1));
    }

    @Test
    void anAgentThatEndedHoldsNobodyBackAndOneWithFewerWarmupIntervalsIsNotWaitedFor() {
        List<Interval> out = new ArrayList<>();
        IntervalMerge merge = new IntervalMerge(2, out::add);
        merge.offer(0, 0, interval(Phase.WARMUP, 1000, 1, 0));
        merge.offer(0, 1, interval(Phase.WARMUP, 2000, 1, 0));
        // agent 2 cut its warm-up after one interval: its measured 0 says it has nothing for warm-up 1
        merge.offer(1, 0, interval(Phase.WARMUP, 1000, 1, 0));
        merge.offer(1, 0, interval(Phase.MEASURE, 2000, 4, 0));
        assertEquals(2, out.size());
        assertEquals(1, out.get(1).successes(), "warm-up 1 is agent 1's alone");
        merge.offer(0, 0, interval(Phase.MEASURE, 3000, 3, 0));
        assertEquals(3, out.size());
        merge.offer(1, 1, interval(Phase.MEASURE, 3000, 2, 0));
        assertEquals(3, out.size(), "agent 1 has not reported measure 1");
        merge.ended(0);
        assertEquals(4, out.size());
        assertEquals(9, merge.mergedMeasuredRequests());
    }
}
