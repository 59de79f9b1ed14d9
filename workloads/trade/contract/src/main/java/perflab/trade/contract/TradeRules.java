package perflab.trade.contract;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * DayTrader's business facts (its TradeConfig and trade logic): the fee, how a completed order moves its quote's
 * price, the population's names and sizes. Facts, so every stack and the audit compute the same.
 */
public final class TradeRules {
    private TradeRules() {
    }

    /** The fee of every buy and sell order. */
    public static final BigDecimal ORDER_FEE = new BigDecimal("24.95");
    /** DayTrader's default population. */
    public static final int DEFAULT_USERS = 15_000;
    public static final int DEFAULT_QUOTES = 10_000;
    /** Most holdings a populated user starts with (0 to this many, each a real buy). */
    public static final int MAX_HOLDINGS = 10;
    /** The populated users' password. */
    public static final String PASSWORD = "xxx";
    /** Keys handed out from the keygen table at a time. */
    public static final int KEY_BLOCK = 1000;
    /** Market summary: gainers and losers shown. */
    public static final int TOP_MOVERS = 5;

    public static String userId(int i) {
        return "uid:" + i;
    }

    public static String symbol(int i) {
        return "s:" + i;
    }

    /** Order statuses: open until completed; closed until its alert was shown, then completed; or cancelled. */
    public static final String OPEN = "open";
    public static final String CLOSED = "closed";
    public static final String COMPLETED = "completed";
    public static final String CANCELLED = "cancelled";

    /**
     * A quote's new price after an order completes: the old price times a factor uniform in 0.90-1.10 (two
     * decimals), except that a $0.01 price is multiplied by 600 and a price over $400 halved (a split).
     *
     * @param uniform a uniform random number in [0, 1)
     * @param down    whether the change is downwards (probability one half)
     */
    public static BigDecimal nextPrice(BigDecimal price, double uniform, boolean down) {
        BigDecimal factor;
        if (price.compareTo(new BigDecimal("0.01")) == 0) {
            factor = BigDecimal.valueOf(600);
        } else if (price.compareTo(BigDecimal.valueOf(400)) > 0) {
            factor = new BigDecimal("0.5");
        } else {
            double change = uniform * 0.1;
            factor = BigDecimal.valueOf(1 + (down ? -change : change)).setScale(2, RoundingMode.HALF_UP);
            if (factor.signum() <= 0) {
                factor = BigDecimal.ONE;
            }
        }
        return price.multiply(factor).setScale(2, RoundingMode.HALF_UP);
    }

    /** What a buy costs the account: price x quantity + fee. */
    public static BigDecimal buyTotal(BigDecimal price, double quantity) {
        return price.multiply(BigDecimal.valueOf(quantity)).add(ORDER_FEE).setScale(2, RoundingMode.HALF_UP);
    }

    /** What a sell brings the account: price x quantity - fee. */
    public static BigDecimal sellTotal(BigDecimal price, double quantity) {
        return price.multiply(BigDecimal.valueOf(quantity)).subtract(ORDER_FEE).setScale(2, RoundingMode.HALF_UP);
    }

    /** Order types. */
    public static final String BUY = "buy";
    public static final String SELL = "sell";

    /** A quotes request names 1 to this many symbols. */
    public static final int MAX_SYMBOLS = 10;

    /**
     * The largest quantity one order may name. perflab's limit, not DayTrader's (which had none): DayTrader's
     * traffic buys 1-200 shares; the limit keeps one order's total, and a user's balance after many, inside the
     * DECIMAL(14,2) money columns.
     */
    public static final double MAX_QUANTITY = 100_000;

    /** The populated quote {@code s:i}'s company name. */
    public static String companyName(int i) {
        return "S" + i + " Incorporated";
    }
}
