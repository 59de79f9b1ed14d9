package perflab.history;

import java.util.List;

/**
 * One run as the history keeps it: a row of table {@code runs} and its figures (docs/history.md).
 *
 * @param directory     the run's directory, absolute, as it was when recorded (its report may since have been deleted)
 * @param status        {@code complete}, {@code incomplete} (interrupted, or ended early, with partial figures) or
 *                      {@code failed} (no figures)
 * @param configKey     {@link ConfigurationKey}: runs of one key form a series
 * @param configuration the configuration in one line, for a person
 * @param configJson    run.json's configuration as it was written
 */
public record RecordedRun(String directory, String startedAt, String endedAt, String workload, String stack,
                          String operation, String model, Integer clients, Double targetRate, Double durationSeconds,
                          String status, String endReason, String label, String experiment, String perflabRevision,
                          String host, Integer cores, String jdk, String collector, String configKey,
                          String configuration, String configJson, List<Figure> figures) {
    public static final String COMPLETE = "complete";
    public static final String INCOMPLETE = "incomplete";
    public static final String FAILED = "failed";

    public RecordedRun {
        figures = List.copyOf(figures);
    }

    /**
     * The same run with {@code givenLabel} and {@code givenExperiment} where it has none of its own (a run recorded by
     * {@code history import}, written before runs carried them).
     */
    public RecordedRun withDefaults(String givenLabel, String givenExperiment) {
        return new RecordedRun(directory, startedAt, endedAt, workload, stack, operation, model, clients, targetRate,
                durationSeconds, status, endReason, label != null ? label : givenLabel,
                experiment != null ? experiment : givenExperiment, perflabRevision, host, cores, jdk, collector,
                configKey, configuration, configJson, figures);
    }
}
