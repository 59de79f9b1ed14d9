package perflab.monitor.gc;

import perflab.core.result.gc.GcSecond;

import java.nio.file.Path;
import java.util.List;

/**
 * The GC logs of a SUT run as several instances followed as one ({@link GcLogTail} each): a second's pause time
 * and heap after GC are the sums of the instances'. With one log, exactly that log's tail.
 */
public final class GcLogTails implements AutoCloseable {
    private final List<GcLogTail> tails;

    public GcLogTails(List<Path> logs) {
        this.tails = logs.stream().map(GcLogTail::new).toList();
    }

    /** How many logs are followed. */
    public int size() {
        return tails.size();
    }

    /** Reads what every log appended since the last poll; false once every tail has failed. */
    public boolean poll() {
        boolean any = false;
        for (GcLogTail tail : tails) {
            any |= tail.poll();
        }
        return any;
    }

    /** Whether any log read so far is a GC log perflab understands. */
    public boolean recognized() {
        return tails.stream().anyMatch(t -> t.failure() == null && t.accumulator().recognized());
    }

    /** The instances' GC in one epoch second, summed; null when no log has a figure for it. */
    public GcSecond second(long epochMs) {
        GcSecond sum = null;
        for (GcLogTail tail : tails) {
            GcSecond s = tail.second(epochMs);
            if (s == null) {
                continue;
            }
            sum = sum == null ? s : sum.plus(s);
        }
        return sum;
    }

    @Override
    public void close() {
        tails.forEach(GcLogTail::close);
    }
}
