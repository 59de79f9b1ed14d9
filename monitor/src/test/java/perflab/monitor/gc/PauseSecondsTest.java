package perflab.monitor.gc;

import org.junit.jupiter.api.Test;
import perflab.core.result.gc.GcEvent;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The per-second part of the GC analysis on its own: pauses split over seconds, cascades keeping their events. */
class PauseSecondsTest {
    private static GcEvent event(long end, double ms) {
        return new GcEvent(end, null, 1, "Pause Young", "young", ms, null, null);
    }

    @Test
    void aPauseAcrossASecondBoundaryIsSplitAndCountedWhereItEnds() {
        PauseSeconds seconds = new PauseSeconds(0.5);
        seconds.pause(event(10_100, 300), 10_100, 300); // 9_800..10_100
        assertEquals(200, seconds.at(9_000).pauseMs(), 1e-9);
        assertEquals(0, seconds.at(9_000).pauses());
        assertEquals(100, seconds.at(10_000).pauseMs(), 1e-9);
        assertEquals(1, seconds.at(10_000).pauses());
        assertEquals(0, seconds.at(11_000).pauseMs());
    }

    @Test
    void onlyCascadeSecondsKeepTheirEventsOnceSettled() {
        PauseSeconds seconds = new PauseSeconds(0.5); // a cascade: more than 500 ms of a second paused
        seconds.pause(event(1_900, 600), 1_900, 600);
        seconds.pause(event(3_100, 50), 3_100, 50);
        seconds.heapAfter(3_100, 42.0, true);
        seconds.settleBefore(10_000);
        PauseSeconds.Timeline timeline = seconds.timeline(1_000, 4_000, 3_000, true);
        assertEquals(List.of(1_000L, 2_000L, 3_000L, 4_000L),
                timeline.perSecond().stream().map(s -> s.epochMs()).toList());
        assertEquals(1, timeline.cascades().size());
        assertEquals(1_000L, timeline.cascades().get(0).epochMs());
        assertEquals(1, timeline.cascades().get(0).events().size());
        assertEquals(42.0, timeline.perSecond().get(2).heapAfterMb());
        assertEquals(42.0, seconds.lowestYoungAfterFrom(2_500));
    }
}
