package perflab.trade.lean;

/**
 * A request the brokerage refuses because of what it asked for, not because anything failed: the web layer shows
 * the one-line message with {@link Reason#httpStatus()}. Nothing was changed when it is thrown.
 */
public final class TradeRefusal extends RuntimeException {
    /** Why, and the HTTP status the web layer answers with. */
    public enum Reason {
        /** A missing, malformed or out-of-range value (quantity, symbols, a form field). */
        BAD_INPUT(400),
        /** A buy of a symbol that has no quote. */
        UNKNOWN_SYMBOL(400),
        /** An action for a user id that has no account. */
        UNKNOWN_USER(404),
        /** A sell of a holding that belongs to another account. */
        NOT_YOUR_HOLDING(403),
        /** A registration for a user id that is taken. */
        DUPLICATE_USER(409);

        private final int httpStatus;

        Reason(int httpStatus) {
            this.httpStatus = httpStatus;
        }

        public int httpStatus() {
            return httpStatus;
        }
    }

    private final Reason reason;

    public TradeRefusal(Reason reason, String message) {
        // no stack trace: a refusal is an answer to bad input, which a load test may send often
        super(message, null, false, false);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
