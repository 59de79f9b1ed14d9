package perflab.loadsource.sipp;

import perflab.core.load.LoadPeriod;

import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * One SIPp statistics period (about a second with -fd 1): what happened between the previous row's CurrentTime
 * and this row's. Counts are differences of SIPp's cumulative (C) columns, so a run's rows add up exactly to its
 * final totals; {@code currentCalls} is the gauge at the period's end.
 *
 * @param startEpochMicros  the previous row's CurrentTime (the run's StartTime for the first row)
 * @param endEpochMicros    this row's CurrentTime: the sample's time, as a timeseries row's epochMs is its end
 * @param responseTimeMeanMs per rtd, SIPp's periodic mean (ResponseTime&lt;rtd&gt;(P)); absent when the period had no sample
 */
public record SipSecond(long startEpochMicros, long endEpochMicros, long callsCreated, long successfulCalls,
                        long failedCalls, long retransmissions, long currentCalls,
                        Map<String, Double> responseTimeMeanMs) {
    public SipSecond {
        responseTimeMeanMs = Collections.unmodifiableMap(new TreeMap<>(responseTimeMeanMs));
    }

    public long epochMs() {
        return endEpochMicros / 1000;
    }

    public double seconds() {
        return (endEpochMicros - startEpochMicros) / 1e6;
    }

    public double callsPerSecond() {
        return seconds() > 0 ? callsCreated / seconds() : 0;
    }

    public double successfulPerSecond() {
        return seconds() > 0 ? successfulCalls / seconds() : 0;
    }

    /** True when the whole period lies inside [start, end]: the rows a window's figures are made of. */
    public boolean inside(Instant start, Instant end) {
        return startEpochMicros >= LoadPeriod.micros(start) && endEpochMicros <= LoadPeriod.micros(end);
    }
}
