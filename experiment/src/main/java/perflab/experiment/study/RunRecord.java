package perflab.experiment.study;

import perflab.core.result.RunSummary;

/**
 * What one run of an experiment gave (or why it gave nothing).
 *
 * @param directory   relative to the experiment's directory
 * @param status      {@link #OK}, {@link #INCOMPLETE}, {@link #FAILED} or {@link #PENDING}
 * @param summary     the run's summary.json; null when it did not measure
 * @param collector   the collector the SUT's JVM really used; null when unknown
 * @param transparentHugePages whether the SUT's JVM really used transparent huge pages; null when unknown
 */
public record RunRecord(int repetition, String directory, String status, String reason, RunSummary summary,
                        String collector, Boolean transparentHugePages) {
    public static final String OK = "ok";
    public static final String INCOMPLETE = "incomplete";
    public static final String FAILED = "failed";
    public static final String PENDING = "pending";

    public static RunRecord pending(int repetition, String directory) {
        return new RunRecord(repetition, directory, PENDING, null, null, null, null);
    }

    public boolean ok() {
        return OK.equals(status);
    }
}
