package perflab.history;

/** Which way a figure gets better: a change the other way is a regression. */
public enum Better {
    HIGHER, LOWER,
    /** A figure with no better direction known (a load source's or a workload's own): any change is flagged. */
    EITHER;

    /** Whether going from {@code before} to {@code after} is a change for the worse. */
    public boolean worse(double before, double after) {
        return switch (this) {
            case HIGHER -> after < before;
            case LOWER -> after > before;
            case EITHER -> after != before;
        };
    }
}
