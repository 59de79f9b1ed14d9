package perflab.history;

/**
 * One number of one run as the history keeps it (table {@code figures}).
 *
 * @param scope {@code ""} for the run as a whole, {@code kind:<kind>} for one request kind, {@code load:<name>} for a
 *              load source's, {@code workload} for the workload's own figures
 * @param name  the figure's name ({@link RunFigure} for the run's and the kinds'; a load source's or workload's own
 *              names otherwise)
 * @param unit  its unit as the history prints it ({@code ms}, {@code µs}, {@code req/s}, ...), {@code ""} for a count
 *              or a number without one
 */
public record Figure(String scope, String name, double value, String unit) {
    public static final String RUN = "";

    public static String kind(String kind) {
        return "kind:" + kind;
    }

    public static String load(String name) {
        return "load:" + name;
    }

    public static final String WORKLOAD = "workload";
}
