package perflab.trade.lean.data;

import perflab.trade.contract.TradeRules;
import perflab.trade.lean.DatabaseFailure;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/**
 * Ids for accounts, holdings and orders, as DayTrader makes them: the keygen row of a key is read FOR UPDATE and
 * moved on by a block of {@value TradeRules#KEY_BLOCK}, and the block's ids are handed out from memory. Several
 * services (or JVMs) on one database get disjoint blocks; the first id ever is 0.
 *
 * <p>A refill commits on its own connection, independently of any caller's transaction. Callers therefore take
 * their ids before borrowing a connection (see the package note).
 */
public final class KeyBlocks {
    public static final String ACCOUNT = "account";
    public static final String HOLDING = "holding";
    public static final String ORDER = "order";

    private static final String LOCK = "SELECT keyval FROM keygen WHERE keyname = ? FOR UPDATE";
    private static final String CREATE = "INSERT INTO keygen (keyname, keyval) VALUES (?, 0)";
    private static final String MOVE = "UPDATE keygen SET keyval = ? WHERE keyname = ?";

    /** The ids [next, end) not handed out yet. */
    private static final class Block {
        int next;
        final int end;

        Block(int first, int end) {
            this.next = first;
            this.end = end;
        }
    }

    private final Transactions transactions;
    private final Map<String, Block> blocks = new HashMap<>();

    public KeyBlocks(DataSource dataSource) {
        this.transactions = new Transactions(dataSource);
    }

    /** The next id of {@code keyName}. One lock for all keys: a refill happens once per thousand ids. */
    public synchronized int next(String keyName) {
        Block block = blocks.get(keyName);
        if (block == null || block.next == block.end) {
            block = reserve(keyName);
            blocks.put(keyName, block);
        }
        return block.next++;
    }

    private Block reserve(String keyName) {
        return transactions.run("reserving " + keyName + " ids", c -> {
            int first = lockedValue(c, keyName);
            int end;
            try {
                end = Math.addExact(first, TradeRules.KEY_BLOCK);
            } catch (ArithmeticException e) {
                throw new DatabaseFailure("the " + keyName + " ids are used up (keygen at " + first + ")", e);
            }
            try (PreparedStatement s = c.prepareStatement(MOVE)) {
                s.setInt(1, end);
                s.setString(2, keyName);
                s.executeUpdate();
            }
            return new Block(first, end);
        });
    }

    /** The key's current value, its row locked; a missing row is created at 0 (as DayTrader does). */
    private static int lockedValue(Connection c, String keyName) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(LOCK)) {
            s.setString(1, keyName);
            try (ResultSet r = s.executeQuery()) {
                if (r.next()) {
                    return r.getInt(1);
                }
            }
        }
        // the schema creates the rows; this is for a row deleted by hand (two creators at once: one fails, once)
        try (PreparedStatement s = c.prepareStatement(CREATE)) {
            s.setString(1, keyName);
            s.executeUpdate();
        }
        return 0;
    }
}
