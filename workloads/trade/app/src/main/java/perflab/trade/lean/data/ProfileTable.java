package perflab.trade.lean.data;

import perflab.trade.lean.Profile;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/** The accountprofile table: who the user is, and the password's hash. */
final class ProfileTable {
    private ProfileTable() {
    }

    static final String INSERT =
            "INSERT INTO accountprofile (userid, passwd, fullname, address, email, creditcard) VALUES (?, ?, ?, ?, ?, ?)";
    private static final String BY_USER =
            "SELECT userid, fullname, address, email, creditcard FROM accountprofile WHERE userid = ?";
    private static final String PASSWORD_HASH = "SELECT passwd FROM accountprofile WHERE userid = ?";
    private static final String UPDATE = "UPDATE accountprofile SET passwd = ?, fullname = ?, address = ?, email = ?,"
            + " creditcard = ? WHERE userid = ?";

    /** Binds {@link #INSERT}; the caller executes or batches it. */
    static void bindInsert(PreparedStatement s, String userId, String passwordHash, String fullName, String address,
                           String email, String creditCard) throws SQLException {
        s.setString(1, userId);
        s.setString(2, passwordHash);
        s.setString(3, fullName);
        s.setString(4, address);
        s.setString(5, email);
        s.setString(6, creditCard);
    }

    /** Whether the profile was inserted: false when the user id is taken (the transaction must then roll back). */
    static boolean insert(Connection c, String userId, String passwordHash, String fullName, String address,
                          String email, String creditCard) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(INSERT)) {
            bindInsert(s, userId, passwordHash, fullName, address, email, creditCard);
            s.executeUpdate();
            return true;
        } catch (SQLException e) {
            if (Transactions.duplicateKey(e)) {
                return false;
            }
            throw e;
        }
    }

    static Optional<Profile> find(Connection c, String userId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(BY_USER)) {
            s.setString(1, userId);
            try (ResultSet r = s.executeQuery()) {
                if (!r.next()) {
                    return Optional.empty();
                }
                return Optional.of(new Profile(r.getString("userid"), r.getString("fullname"),
                        r.getString("address"), r.getString("email"), r.getString("creditcard")));
            }
        }
    }

    static Optional<String> passwordHash(Connection c, String userId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(PASSWORD_HASH)) {
            s.setString(1, userId);
            try (ResultSet r = s.executeQuery()) {
                return r.next() ? Optional.ofNullable(r.getString(1)) : Optional.empty();
            }
        }
    }

    /** Whether the user exists (and was updated). */
    static boolean update(Connection c, String userId, String passwordHash, String fullName, String address,
                          String email, String creditCard) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(UPDATE)) {
            s.setString(1, passwordHash);
            s.setString(2, fullName);
            s.setString(3, address);
            s.setString(4, email);
            s.setString(5, creditCard);
            s.setString(6, userId);
            return s.executeUpdate() == 1;
        }
    }
}
