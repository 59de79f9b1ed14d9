package perflab.trade.lean;

import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;

/**
 * The brokerage's operations, as the web pages call them (DayTrader's TradeServices). Every method is thread-safe
 * and runs in its own transaction. Bad input is refused with a {@link TradeRefusal} (a 4xx; nothing changed); a
 * database failure is a {@link DatabaseFailure} (a 500). Form text is parsed with {@link TradeInput} first.
 */
public interface TradeService extends AutoCloseable {

    /** The account after a successful login (last login now, login count + 1); empty for a wrong user or password. */
    Optional<Account> login(String userId, String password);

    /** Counts a logout; an unknown user is ignored. */
    void logout(String userId);

    /**
     * A new user with a profile and an account holding {@code openingBalance}.
     *
     * @throws TradeRefusal DUPLICATE_USER when the user id is taken, BAD_INPUT for an invalid field
     */
    Account register(String userId, String password, String fullName, String address, String email,
                     String creditCard, BigDecimal openingBalance);

    Optional<Account> account(String userId);

    Optional<Profile> profile(String userId);

    /** Replaces every profile field, the password included (DayTrader's update form sends them all). */
    Profile updateProfile(String userId, String password, String fullName, String address, String email,
                          String creditCard);

    /** The user's holdings in id order, each with its stock's current price; empty for an unknown user. */
    List<Holding> holdings(String userId);

    /** The quotes of 1-10 symbols in the order asked; unknown symbols are left out. */
    List<Quote> quotes(List<String> symbols);

    /**
     * Buys {@code quantity} shares at the current price; the balance pays price x quantity + fee at once (it may go
     * negative, as in DayTrader). The order is closed in sync mode, open in async mode.
     *
     * @throws TradeRefusal BAD_INPUT for a quantity that is not positive or too large, UNKNOWN_SYMBOL, UNKNOWN_USER
     */
    Order buy(String userId, String symbol, double quantity);

    /**
     * Sells the whole holding at the current price. A holding that is gone (sold already) or whose sell is still in
     * flight gives a cancelled order and changes nothing else.
     *
     * @throws TradeRefusal NOT_YOUR_HOLDING when it belongs to another account, UNKNOWN_USER
     */
    Order sell(String userId, int holdingId);

    /**
     * Completes an open order: a buy creates its holding, a sell removes it; the order is closed and the quote's
     * price moves. An order that is not open is returned as it is (a repeated completion changes nothing).
     *
     * @throws TradeRefusal BAD_INPUT for an unknown order id
     */
    Order completeOrder(int orderId);

    /** The user's closed orders, now marked completed so that each is alerted once (returned as they were). */
    List<Order> closedOrders(String userId);

    /** The market summary, computed at most once per the configured interval. */
    MarketSummary marketSummary();

    /**
     * Replaces all users, quotes, holdings and orders with DayTrader's population: {@code quotes} quotes s:0..,
     * {@code users} users uid:0.. with 0-10 holdings each, bought through the ordinary buy path and completed at once
     * whatever the order-processing mode. The same seed gives the same data (apart from timestamps and password
     * salts). The key generator is kept, as in DayTrader. Run it while no traffic is running.
     *
     * @param progress told every 10 s how far a long population has come (perflab's stack passes it on as a progress
     *                 line, which keeps perflab waiting for the server)
     */
    PopulationReport populate(int users, int quotes, long seed, java.util.function.Consumer<String> progress);

    /** {@link #populate(int, int, long, java.util.function.Consumer)} telling no one of its progress. */
    default PopulationReport populate(int users, int quotes, long seed) {
        return populate(users, quotes, seed, what -> { });
    }

    /** Checks the books: balances against completed orders, holdings against buys, open orders, quote volumes. */
    AuditReport audit();

    /**
     * Waits, at most {@code limit}, until the orders handed to asynchronous completion have been completed (at
     * once in sync mode): what "the run has drained" means before an audit. Returns whether they all were.
     */
    boolean awaitCompletions(java.time.Duration limit);

    /** Waits for pending asynchronous completions; the data source stays open (it belongs to the caller). */
    @Override
    void close();

    /** A quantity from a form field; the text is checked by {@link TradeInput#parseQuantity}. */
    default Order buy(String userId, String symbol, String quantity) {
        return buy(userId, symbol, TradeInput.parseQuantity(quantity));
    }
}
