package perflab.history.store;

import java.util.Map;

/**
 * A run as listed from the history: its row's main columns and its figures of the run as a whole, by name.
 */
public record StoredRun(long id, String directory, String startedAt, String workload, String stack, String operation,
                        String status, String label, String experiment, String configKey, String configuration,
                        Map<String, Double> figures) {
}
