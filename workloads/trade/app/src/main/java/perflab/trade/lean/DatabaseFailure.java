package perflab.trade.lean;

/** The database failed (connection, constraint, SQL error): a 500, unlike a {@link TradeRefusal}. */
public final class DatabaseFailure extends RuntimeException {
    public DatabaseFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
