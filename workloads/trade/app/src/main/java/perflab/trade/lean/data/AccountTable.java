package perflab.trade.lean.data;

import perflab.trade.lean.Account;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalInt;

/** The account table: a user's cash balance and login counts. */
final class AccountTable {
    private AccountTable() {
    }

    private static final String COLUMNS =
            "accountid, profile_userid, balance, openbalance, logincount, logoutcount, creationdate, lastlogin";
    static final String INSERT = "INSERT INTO account (" + COLUMNS + ") VALUES (?, ?, ?, ?, 0, 0, ?, ?)";
    private static final String BY_USER = "SELECT " + COLUMNS + " FROM account WHERE profile_userid = ?";
    private static final String ID_OF = "SELECT accountid FROM account WHERE profile_userid = ?";
    private static final String LOGIN =
            "UPDATE account SET lastlogin = ?, logincount = logincount + 1 WHERE profile_userid = ?";
    private static final String LOGOUT = "UPDATE account SET logoutcount = logoutcount + 1 WHERE profile_userid = ?";
    private static final String ADD_TO_BALANCE = "UPDATE account SET balance = balance + ? WHERE accountid = ?";

    /** Binds {@link #INSERT} for a new account holding its opening balance; the caller executes or batches it. */
    static Account bindInsert(PreparedStatement s, int accountId, String userId, BigDecimal openingBalance,
                              Instant now) throws SQLException {
        s.setInt(1, accountId);
        s.setString(2, userId);
        s.setBigDecimal(3, openingBalance);
        s.setBigDecimal(4, openingBalance);
        UtcTime.bind(s, 5, now);
        UtcTime.bind(s, 6, now);
        return new Account(accountId, userId, openingBalance, openingBalance, 0, 0, now, now);
    }

    static Account insert(Connection c, int accountId, String userId, BigDecimal openingBalance, Instant now)
            throws SQLException {
        try (PreparedStatement s = c.prepareStatement(INSERT)) {
            Account account = bindInsert(s, accountId, userId, openingBalance, now);
            s.executeUpdate();
            return account;
        }
    }

    static Optional<Account> find(Connection c, String userId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(BY_USER)) {
            s.setString(1, userId);
            try (ResultSet r = s.executeQuery()) {
                if (!r.next()) {
                    return Optional.empty();
                }
                return Optional.of(new Account(r.getInt("accountid"), r.getString("profile_userid"),
                        r.getBigDecimal("balance"), r.getBigDecimal("openbalance"), r.getInt("logincount"),
                        r.getInt("logoutcount"), UtcTime.read(r, "creationdate"), UtcTime.read(r, "lastlogin")));
            }
        }
    }

    static OptionalInt idOf(Connection c, String userId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(ID_OF)) {
            s.setString(1, userId);
            try (ResultSet r = s.executeQuery()) {
                return r.next() ? OptionalInt.of(r.getInt(1)) : OptionalInt.empty();
            }
        }
    }

    static void recordLogin(Connection c, String userId, Instant now) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(LOGIN)) {
            UtcTime.bind(s, 1, now);
            s.setString(2, userId);
            s.executeUpdate();
        }
    }

    static void recordLogout(Connection c, String userId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(LOGOUT)) {
            s.setString(1, userId);
            s.executeUpdate();
        }
    }

    /** Adds a (possibly negative) amount in the database, so that concurrent changes of one balance add up. */
    static void addToBalance(Connection c, int accountId, BigDecimal amount) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(ADD_TO_BALANCE)) {
            s.setBigDecimal(1, amount);
            s.setInt(2, accountId);
            s.executeUpdate();
        }
    }
}
