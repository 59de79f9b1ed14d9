package perflab.claims.contract;

/** The message sizes the workload takes: the study's 3, 10 and 100 KB and anything between the bounds. */
public final class MessageSizes {
    /** The smallest message that still holds one of each repeated element. */
    public static final int MIN_BYTES = 2 * 1024;
    public static final int MAX_BYTES = 4 * 1024 * 1024;
    public static final int DEFAULT_BYTES = 3 * 1024;

    private MessageSizes() {
    }
}
