package perflab.trade.lean.data;

import perflab.trade.contract.TradeRules;
import perflab.trade.lean.AuditReport;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks that the books agree after a run (with async completions drained): every balance is its opening balance
 * plus the cash of its completed orders; every holding came from a completed buy of its account; no order is
 * still open; every quote's volume is the shares of its completed orders traded, and its change is price - open.
 * Sums are computed here with the trading code's own rules, so the audit and the trades cannot disagree on
 * rounding.
 */
public final class Audit {
    private static final String DONE = "('" + TradeRules.CLOSED + "', '" + TradeRules.COMPLETED + "')";
    private static final String ACCOUNTS =
            "SELECT accountid, profile_userid, openbalance, balance FROM account ORDER BY accountid";
    private static final String COMPLETED_ORDERS = "SELECT account_accountid, orderid, ordertype, price, quantity"
            + " FROM orders WHERE orderstatus IN " + DONE + " ORDER BY account_accountid, orderid";
    private static final String ORPHAN_HOLDINGS = "SELECT h.holdingid, h.account_accountid FROM holding h"
            + " WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.holding_holdingid = h.holdingid"
            + " AND o.account_accountid = h.account_accountid AND o.ordertype = '" + TradeRules.BUY + "'"
            + " AND o.orderstatus IN " + DONE + ") ORDER BY h.holdingid";
    private static final String OPEN_ORDERS = "SELECT orderid, account_accountid FROM orders"
            + " WHERE orderstatus = '" + TradeRules.OPEN + "' ORDER BY orderid";
    private static final String QUOTES = "SELECT symbol, price, open1, change1, volume FROM quote ORDER BY symbol";
    // grouped apart from the quotes: orders have no index on their symbol, and a join per quote scans them all
    private static final String TRADED = "SELECT quote_symbol, SUM(quantity) FROM orders WHERE orderstatus IN "
            + DONE + " GROUP BY quote_symbol";
    /** Rows fetched at a time, so that PostgreSQL streams a large table instead of loading it whole. */
    private static final int FETCH = 1000;

    private final Transactions transactions;

    public Audit(Transactions transactions) {
        this.transactions = transactions;
    }

    /** The violations found so far: counted all, described up to {@link AuditReport#SHOWN}. */
    private static final class Findings {
        long count;
        final List<String> shown = new ArrayList<>();

        void add(String violation) {
            if (count++ < AuditReport.SHOWN) {
                shown.add(violation);
            }
        }
    }

    public AuditReport run() {
        return transactions.run("auditing", c -> {
            Findings findings = new Findings();
            int accounts = balances(c, findings);
            orphanHoldings(c, findings);
            openOrders(c, findings);
            quotes(c, findings);
            return new AuditReport(accounts, findings.count, findings.shown);
        });
    }

    /** Walks accounts and completed orders side by side, both sorted by account id; returns the accounts seen. */
    private static int balances(Connection c, Findings findings) throws SQLException {
        int accounts = 0;
        try (PreparedStatement a = query(c, ACCOUNTS); ResultSet account = a.executeQuery();
             PreparedStatement o = query(c, COMPLETED_ORDERS); ResultSet order = o.executeQuery()) {
            boolean moreOrders = order.next();
            while (account.next()) {
                accounts++;
                int accountId = account.getInt("accountid");
                for (; moreOrders && order.getInt(1) < accountId; moreOrders = order.next()) {
                    findings.add("order " + order.getInt(2) + " belongs to the missing account " + order.getInt(1));
                }
                BigDecimal expected = account.getBigDecimal("openbalance");
                for (; moreOrders && order.getInt(1) == accountId; moreOrders = order.next()) {
                    expected = expected.add(Trading.cashFlow(order.getString(3), order.getBigDecimal(4),
                            order.getDouble(5)));
                }
                BigDecimal balance = account.getBigDecimal("balance");
                if (balance.compareTo(expected) != 0) {
                    findings.add("account " + accountId + " (" + account.getString("profile_userid")
                            + ") has balance " + balance + " but its opening balance and completed orders make "
                            + expected);
                }
            }
            for (; moreOrders; moreOrders = order.next()) {
                findings.add("order " + order.getInt(2) + " belongs to the missing account " + order.getInt(1));
            }
        }
        return accounts;
    }

    private static void orphanHoldings(Connection c, Findings findings) throws SQLException {
        try (PreparedStatement s = query(c, ORPHAN_HOLDINGS); ResultSet r = s.executeQuery()) {
            while (r.next()) {
                findings.add("holding " + r.getInt(1) + " of account " + r.getInt(2)
                        + " comes from no completed buy of that account");
            }
        }
    }

    private static void openOrders(Connection c, Findings findings) throws SQLException {
        try (PreparedStatement s = query(c, OPEN_ORDERS); ResultSet r = s.executeQuery()) {
            while (r.next()) {
                findings.add("order " + r.getInt(1) + " of account " + r.getInt(2) + " is still open");
            }
        }
    }

    private static void quotes(Connection c, Findings findings) throws SQLException {
        Map<String, Double> traded = new HashMap<>();
        try (PreparedStatement s = query(c, TRADED); ResultSet r = s.executeQuery()) {
            while (r.next()) {
                traded.put(r.getString(1), r.getDouble(2));
            }
        }
        try (PreparedStatement s = query(c, QUOTES); ResultSet r = s.executeQuery()) {
            while (r.next()) {
                String symbol = r.getString("symbol");
                double volume = r.getDouble("volume");
                double shares = traded.getOrDefault(symbol, 0.0);
                // volumes are sums of doubles, added in another order than here
                if (Math.abs(volume - shares) > 1e-6 * Math.max(1, shares)) {
                    findings.add("quote " + symbol + " has volume " + volume + " but its completed orders traded "
                            + shares);
                }
                double change = r.getBigDecimal("price").subtract(r.getBigDecimal("open1")).doubleValue();
                if (Math.abs(r.getDouble("change1") - change) > 0.005) {
                    findings.add("quote " + symbol + " has change " + r.getDouble("change1")
                            + " but price - open is " + change);
                }
            }
        }
    }

    private static PreparedStatement query(Connection c, String sql) throws SQLException {
        PreparedStatement s = c.prepareStatement(sql);
        s.setFetchSize(FETCH);
        return s;
    }
}
