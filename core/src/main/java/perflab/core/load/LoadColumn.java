package perflab.core.load;

/**
 * One column of a load source's periods ({@link LoadPeriod#values}), and how a part of the window (a fail-over's
 * {@code during}, say) adds it up over the periods in it.
 *
 * @param name    a camelCase name: its header in timeseries-loads.csv, its key in a fail-over phase's {@code loads}
 * @param trouble whether a period with a value above 0 shows a trace of a disturbance the source can see (a failed
 *                call, a message sent again because no answer came): a fail-over's disturbance lasts until the last
 *                such period, and the console's account of each part names these columns
 */
public record LoadColumn(String name, Adding adding, boolean trouble) {
    public enum Adding {
        /** A count in the period: a part has the sum (calls made, failed, retransmissions). */
        SUM,
        /** A level in the period: a part has the largest (a response time's mean, calls open at its end). */
        MAX,
        /** Shown per period only (a rate): a part leaves it out. */
        NONE
    }

    public static LoadColumn sum(String name) {
        return new LoadColumn(name, Adding.SUM, false);
    }

    /** A count of trouble: summed, and above 0 a trace of a disturbance. */
    public static LoadColumn trouble(String name) {
        return new LoadColumn(name, Adding.SUM, true);
    }

    public static LoadColumn max(String name) {
        return new LoadColumn(name, Adding.MAX, false);
    }

    public static LoadColumn perPeriod(String name) {
        return new LoadColumn(name, Adding.NONE, false);
    }
}
