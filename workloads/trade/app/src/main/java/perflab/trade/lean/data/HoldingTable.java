package perflab.trade.lean.data;

import perflab.trade.lean.Holding;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The holding table: shares bought and not yet sold. */
final class HoldingTable {
    private HoldingTable() {
    }

    /** A holding as a sell sees it, its row locked. */
    record Locked(int holdingId, int accountId, String symbol, double quantity, boolean inFlight) {
    }

    private static final String INSERT = "INSERT INTO holding (holdingid, purchaseprice, quantity, purchasedate,"
            + " account_accountid, quote_symbol) VALUES (?, ?, ?, ?, ?, ?)";
    private static final String LOCK = "SELECT holdingid, account_accountid, quote_symbol, quantity, purchasedate"
            + " FROM holding WHERE holdingid = ? FOR UPDATE";
    private static final String MARK = "UPDATE holding SET purchasedate = ? WHERE holdingid = ?";
    private static final String DELETE = "DELETE FROM holding WHERE holdingid = ?";
    private static final String OF_USER = "SELECT h.holdingid, h.quote_symbol, h.quantity, h.purchaseprice,"
            + " h.purchasedate, q.price FROM holding h"
            + " JOIN account a ON h.account_accountid = a.accountid"
            + " JOIN quote q ON q.symbol = h.quote_symbol"
            + " WHERE a.profile_userid = ? ORDER BY h.holdingid";

    static void insert(Connection c, int holdingId, BigDecimal purchasePrice, double quantity, Instant purchaseDate,
                       int accountId, String symbol) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(INSERT)) {
            s.setInt(1, holdingId);
            s.setBigDecimal(2, purchasePrice);
            s.setDouble(3, quantity);
            UtcTime.bind(s, 4, purchaseDate);
            s.setInt(5, accountId);
            s.setString(6, symbol);
            s.executeUpdate();
        }
    }

    static Optional<Locked> lock(Connection c, int holdingId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(LOCK)) {
            s.setInt(1, holdingId);
            try (ResultSet r = s.executeQuery()) {
                if (!r.next()) {
                    return Optional.empty();
                }
                return Optional.of(new Locked(r.getInt("holdingid"), r.getInt("account_accountid"),
                        r.getString("quote_symbol"), r.getDouble("quantity"),
                        Holding.SELL_IN_FLIGHT.equals(UtcTime.read(r, "purchasedate"))));
            }
        }
    }

    /** Marks the holding as being sold (DayTrader's epoch-0 purchase date), so that a second sell is cancelled. */
    static void markSellInFlight(Connection c, int holdingId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(MARK)) {
            UtcTime.bind(s, 1, Holding.SELL_IN_FLIGHT);
            s.setInt(2, holdingId);
            s.executeUpdate();
        }
    }

    static void delete(Connection c, int holdingId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(DELETE)) {
            s.setInt(1, holdingId);
            s.executeUpdate();
        }
    }

    static List<Holding> ofUser(Connection c, String userId) throws SQLException {
        List<Holding> holdings = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement(OF_USER)) {
            s.setString(1, userId);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    holdings.add(new Holding(r.getInt("holdingid"), r.getString("quote_symbol"),
                            r.getDouble("quantity"), r.getBigDecimal("purchaseprice"),
                            UtcTime.read(r, "purchasedate"), r.getBigDecimal("price")));
                }
            }
        }
        return holdings;
    }
}
