package perflab.trade.lean.data;

import perflab.trade.contract.TradeRules;
import perflab.trade.lean.MarketSummary;
import perflab.trade.lean.Quote;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.random.RandomGenerator;

/** The quote table: each stock's price, its price at population (open1), change and volume. */
final class QuoteTable {
    private QuoteTable() {
    }

    private static final String COLUMNS = "symbol, companyname, price, open1, low, high, change1, volume";
    static final String INSERT = "INSERT INTO quote (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, 0, 0)";
    private static final String PRICE = "SELECT price FROM quote WHERE symbol = ?";
    private static final String LOCK = "SELECT price, open1 FROM quote WHERE symbol = ? FOR UPDATE";
    private static final String TRADE = "UPDATE quote SET price = ?, change1 = ?, volume = volume + ? WHERE symbol = ?";
    private static final String INDEX = "SELECT COUNT(*), SUM(price), SUM(open1), SUM(volume) FROM quote";
    // the symbol breaks ties, so that equal changes list the same way every time
    private static final String GAINERS = "SELECT " + COLUMNS + " FROM quote ORDER BY change1 DESC, symbol"
            + " FETCH FIRST " + TradeRules.TOP_MOVERS + " ROWS ONLY";
    private static final String LOSERS = "SELECT " + COLUMNS + " FROM quote ORDER BY change1 ASC, symbol"
            + " FETCH FIRST " + TradeRules.TOP_MOVERS + " ROWS ONLY";
    /** The IN lists of 1 to 10 parameters, made once: the statement cache then sees ten fixed statements. */
    private static final String[] BY_SYMBOLS = new String[TradeRules.MAX_SYMBOLS + 1];

    static {
        for (int n = 1; n <= TradeRules.MAX_SYMBOLS; n++) {
            BY_SYMBOLS[n] = "SELECT " + COLUMNS + " FROM quote WHERE symbol IN ("
                    + String.join(", ", Collections.nCopies(n, "?")) + ")";
        }
    }

    /** Binds {@link #INSERT} for a new quote whose open, low, high and price are all {@code price}. */
    static void bindInsert(PreparedStatement s, String symbol, String companyName, BigDecimal price)
            throws SQLException {
        s.setString(1, symbol);
        s.setString(2, companyName);
        s.setBigDecimal(3, price);
        s.setBigDecimal(4, price);
        s.setBigDecimal(5, price);
        s.setBigDecimal(6, price);
    }

    /** The quotes of 1-10 distinct symbols, in the order given; unknown ones are left out. */
    static List<Quote> find(Connection c, List<String> symbols) throws SQLException {
        Map<String, Quote> found = new HashMap<>();
        try (PreparedStatement s = c.prepareStatement(BY_SYMBOLS[symbols.size()])) {
            for (int i = 0; i < symbols.size(); i++) {
                s.setString(i + 1, symbols.get(i));
            }
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    Quote q = read(r);
                    found.put(q.symbol(), q);
                }
            }
        }
        List<Quote> quotes = new ArrayList<>(found.size());
        for (String symbol : symbols) {
            Quote q = found.get(symbol);
            if (q != null) {
                quotes.add(q);
            }
        }
        return quotes;
    }

    static Optional<BigDecimal> price(Connection c, String symbol) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(PRICE)) {
            s.setString(1, symbol);
            try (ResultSet r = s.executeQuery()) {
                return r.next() ? Optional.of(r.getBigDecimal(1)) : Optional.empty();
            }
        }
    }

    /**
     * Moves the quote after {@code quantity} shares traded: DayTrader's random price change, change = price -
     * open, volume + quantity; under the row's lock, so that concurrent trades of one stock all count.
     */
    static void trade(Connection c, String symbol, double quantity, RandomGenerator random) throws SQLException {
        BigDecimal price;
        BigDecimal open;
        try (PreparedStatement s = c.prepareStatement(LOCK)) {
            s.setString(1, symbol);
            try (ResultSet r = s.executeQuery()) {
                if (!r.next()) {
                    throw new SQLException("quote " + symbol + " vanished while an order of it completed");
                }
                price = r.getBigDecimal(1);
                open = r.getBigDecimal(2);
            }
        }
        BigDecimal next = TradeRules.nextPrice(price, random.nextDouble(), random.nextBoolean());
        try (PreparedStatement s = c.prepareStatement(TRADE)) {
            s.setBigDecimal(1, next);
            s.setDouble(2, next.subtract(open).doubleValue());
            s.setDouble(3, quantity);
            s.setString(4, symbol);
            s.executeUpdate();
        }
    }

    /** DayTrader's market summary: the index over all quotes and the top movers by change. */
    static MarketSummary summary(Connection c, Instant now) throws SQLException {
        long count;
        BigDecimal prices;
        BigDecimal opens;
        double volume;
        try (PreparedStatement s = c.prepareStatement(INDEX); ResultSet r = s.executeQuery()) {
            r.next();
            count = r.getLong(1);
            prices = r.getBigDecimal(2);
            opens = r.getBigDecimal(3);
            volume = r.getDouble(4);
        }
        return new MarketSummary(mean(prices, count), mean(opens, count), volume, movers(c, GAINERS),
                movers(c, LOSERS), now);
    }

    private static BigDecimal mean(BigDecimal sum, long count) {
        if (count == 0 || sum == null) {
            return BigDecimal.ZERO.setScale(2);
        }
        return sum.divide(BigDecimal.valueOf(count), 2, RoundingMode.HALF_UP);
    }

    private static List<Quote> movers(Connection c, String sql) throws SQLException {
        List<Quote> quotes = new ArrayList<>(TradeRules.TOP_MOVERS);
        try (PreparedStatement s = c.prepareStatement(sql); ResultSet r = s.executeQuery()) {
            while (r.next()) {
                quotes.add(read(r));
            }
        }
        return quotes;
    }

    private static Quote read(ResultSet r) throws SQLException {
        return new Quote(r.getString("symbol"), r.getString("companyname"), r.getBigDecimal("price"),
                r.getBigDecimal("open1"), r.getBigDecimal("low"), r.getBigDecimal("high"), r.getDouble("change1"),
                r.getDouble("volume"));
    }
}
