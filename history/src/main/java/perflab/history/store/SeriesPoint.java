package perflab.history.store;

/** One run's value of one figure, a point of a configuration's series. */
public record SeriesPoint(long runId, String startedAt, String label, String experiment, String directory,
                          double value) {
}
