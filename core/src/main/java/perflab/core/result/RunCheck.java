package perflab.core.result;

import java.util.Map;

/**
 * A check of the server's state after the drive (summary.json's {@code checks.<name>}), asked by the workload
 * once the driver has stopped and the server has drained: trade's consistency audit of its books. A failed check
 * fails the run (exit status 1) even when every response was right, because the figures were measured on a
 * server that got its work wrong.
 *
 * @param status  {@link #PASSED}, {@link #FAILED}, or {@link #UNAVAILABLE} (the server offers no such check, e.g.
 *                another product at --target, or it did not answer; the run is not failed for it)
 * @param line    one line for the console ("15000 accounts checked, 0 violations")
 * @param details the check's own figures (counts, the first violations), as its workload documents them
 */
public record RunCheck(String name, String status, String line, Map<String, Object> details) {
    public static final String PASSED = "passed";
    public static final String FAILED = "failed";
    public static final String UNAVAILABLE = "unavailable";

    public RunCheck {
        if (!status.equals(PASSED) && !status.equals(FAILED) && !status.equals(UNAVAILABLE)) {
            throw new IllegalArgumentException("a check's status is passed, failed or unavailable, got " + status);
        }
        details = details == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(details));
    }

    public static RunCheck unavailable(String name, String why) {
        return new RunCheck(name, UNAVAILABLE, why, Map.of());
    }

    public boolean failed() {
        return FAILED.equals(status);
    }
}
