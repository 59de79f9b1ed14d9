package perflab.history.store;

/**
 * Which runs to list: every given field must match (null: any). Dates are ISO-8601 (2026-11-29, or a whole instant),
 * compared with the run's start.
 *
 * @param matching text the configuration's one-line description contains ({@code data-access=jpa})
 * @param limit    the newest this many, listed oldest first; 0 for all
 */
public record RunFilter(String workload, String stack, String operation, String label, String configKey,
                        String matching, String since, String until, String status, int limit) {
    public static final RunFilter ALL = new RunFilter(null, null, null, null, null, null, null, null, null, 0);

    public RunFilter withConfigKey(String key) {
        return new RunFilter(workload, stack, operation, label, key, matching, since, until, status, limit);
    }
}
