package perflab.trade.lean.data;

import perflab.trade.contract.TradeRules;
import perflab.trade.lean.Order;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The orders table (DayTrader's ORDEREJB; ORDER is a reserved word). */
final class OrderTable {
    private OrderTable() {
    }

    private static final String COLUMNS = "orderid, account_accountid, ordertype, orderstatus, opendate,"
            + " completiondate, quantity, price, orderfee, quote_symbol, holding_holdingid";
    static final String INSERT = "INSERT INTO orders (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    private static final String LOCK = "SELECT " + COLUMNS + " FROM orders WHERE orderid = ? FOR UPDATE";
    private static final String FINISH =
            "UPDATE orders SET orderstatus = ?, completiondate = ?, holding_holdingid = ? WHERE orderid = ?";
    private static final String CLEAR_HOLDING =
            "UPDATE orders SET holding_holdingid = NULL WHERE holding_holdingid = ?";
    // the join finds the account by account_userid, then its closed orders by the closed_orders index, the only
    // index on the account (schema.sql says why): ClosedOrdersPlanTest
    static final String CLOSED_OF_USER = "SELECT o.orderid, o.account_accountid, o.ordertype, o.orderstatus,"
            + " o.opendate, o.completiondate, o.quantity, o.price, o.orderfee, o.quote_symbol, o.holding_holdingid"
            + " FROM orders o JOIN account a ON o.account_accountid = a.accountid"
            + " WHERE a.profile_userid = ? AND o.orderstatus = ? ORDER BY o.orderid";
    private static final String ALERTED =
            "UPDATE orders SET orderstatus = ?, completiondate = ? WHERE orderid = ? AND orderstatus = ?";

    static void insert(Connection c, Order o) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(INSERT)) {
            s.setInt(1, o.orderId());
            s.setInt(2, o.accountId());
            s.setString(3, o.type());
            s.setString(4, o.status());
            UtcTime.bind(s, 5, o.openDate());
            UtcTime.bind(s, 6, o.completionDate());
            s.setDouble(7, o.quantity());
            s.setBigDecimal(8, o.price());
            s.setBigDecimal(9, o.fee());
            s.setString(10, o.symbol());
            bindHolding(s, 11, o.holdingId());
            s.executeUpdate();
        }
    }

    /** The order, its row locked until the transaction ends, so that only one completion of it proceeds. */
    static Optional<Order> lock(Connection c, int orderId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(LOCK)) {
            s.setInt(1, orderId);
            try (ResultSet r = s.executeQuery()) {
                return r.next() ? Optional.of(read(r)) : Optional.empty();
            }
        }
    }

    /** Writes the order's status, completion date and holding as {@code o} has them. */
    static void finish(Connection c, Order o) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(FINISH)) {
            s.setString(1, o.status());
            UtcTime.bind(s, 2, o.completionDate());
            bindHolding(s, 3, o.holdingId());
            s.setInt(4, o.orderId());
            s.executeUpdate();
        }
    }

    /** Forgets a sold holding in every order that names it: its buy and its sell. */
    static void clearHolding(Connection c, int holdingId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(CLEAR_HOLDING)) {
            s.setInt(1, holdingId);
            s.executeUpdate();
        }
    }

    /**
     * The user's closed orders, each marked completed; an order another request marked first is left out, so
     * that every order is alerted once.
     */
    static List<Order> takeClosed(Connection c, String userId, Instant now) throws SQLException {
        List<Order> closed = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement(CLOSED_OF_USER)) {
            s.setString(1, userId);
            s.setString(2, TradeRules.CLOSED);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    closed.add(read(r));
                }
            }
        }
        if (closed.isEmpty()) {
            return closed;
        }
        List<Order> taken = new ArrayList<>(closed.size());
        try (PreparedStatement s = c.prepareStatement(ALERTED)) {
            for (Order o : closed) {
                s.setString(1, TradeRules.COMPLETED);
                UtcTime.bind(s, 2, now);
                s.setInt(3, o.orderId());
                s.setString(4, TradeRules.CLOSED);
                if (s.executeUpdate() == 1) {
                    taken.add(o);
                }
            }
        }
        return taken;
    }

    private static void bindHolding(PreparedStatement s, int index, Integer holdingId) throws SQLException {
        if (holdingId == null) {
            s.setNull(index, Types.INTEGER);
        } else {
            s.setInt(index, holdingId);
        }
    }

    private static Order read(ResultSet r) throws SQLException {
        int holding = r.getInt("holding_holdingid");
        Integer holdingId = r.wasNull() ? null : holding;
        return new Order(r.getInt("orderid"), r.getInt("account_accountid"), r.getString("ordertype"),
                r.getString("orderstatus"), UtcTime.read(r, "opendate"), UtcTime.read(r, "completiondate"),
                r.getDouble("quantity"), r.getBigDecimal("price"), r.getBigDecimal("orderfee"),
                r.getString("quote_symbol"), holdingId);
    }
}
