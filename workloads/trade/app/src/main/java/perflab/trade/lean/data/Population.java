package perflab.trade.lean.data;

import perflab.trade.contract.TradeRules;
import perflab.trade.lean.PopulationReport;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

/**
 * DayTrader's population (its buildDB): quotes s:0.. at a whole price of 1-200, then users uid:0.. with profiles
 * in DayTrader's formats, an opening balance of 200,000-299,999 (uid:0: 1,000,000) and 0-10 holdings, each a real
 * buy completed at once, which moves its quote. Every number comes from one generator seeded with the seed, the
 * price moves included, so the same seed gives the same data.
 *
 * <p>Fast where it matters: quotes, profiles and accounts are inserted in batches; users go in chunks, each one
 * transaction, with their ids taken and their password hashes computed (on every core) before it begins.
 */
public final class Population {
    /** Users per transaction: large enough to amortise the commit, small enough to keep the undo log small. */
    static final int CHUNK = 500;
    private static final int QUOTE_BATCH = 1000;
    private static final BigDecimal FIRST_USER_BALANCE = new BigDecimal("1000000.00");
    // TRUNCATE, unlike DELETE, does not log every row; keygen stays, as in DayTrader (other JVMs may hold blocks)
    private static final String[] CLEAR = {
            "TRUNCATE TABLE orders", "TRUNCATE TABLE holding", "TRUNCATE TABLE account",
            "TRUNCATE TABLE accountprofile", "TRUNCATE TABLE quote"};

    /** One populated user, drawn before the chunk's transaction. */
    private record NewUser(String userId, String fullName, String address, String email, String creditCard,
                           BigDecimal openingBalance, List<Purchase> purchases) {
    }

    private record Purchase(String symbol, double quantity) {
    }

    private static final long PROGRESS_EVERY_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final Transactions transactions;
    private final KeyBlocks keys;

    public Population(Transactions transactions, KeyBlocks keys) {
        this.transactions = transactions;
        this.keys = keys;
    }

    /** @param progress told every 10 s how far a long population has come ("trade database: populated N of M users") */
    public PopulationReport run(int users, int quotes, long seed, java.util.function.Consumer<String> progress) {
        if (users < 0) {
            throw new IllegalArgumentException("users must be 0 or more, was " + users);
        }
        if (quotes < 1) {
            throw new IllegalArgumentException("quotes must be 1 or more, was " + quotes);
        }
        long start = System.nanoTime();
        Random random = new Random(seed);
        Trading trading = new Trading(() -> random);
        transactions.run("clearing the trade tables", c -> {
            try (Statement s = c.createStatement()) {
                for (String sql : CLEAR) {
                    s.execute(sql);
                }
            }
            return null;
        });
        insertQuotes(quotes, random);
        int holdings = 0;
        long said = System.nanoTime();
        for (int first = 0; first < users; first += CHUNK) {
            holdings += insertUsers(first, Math.min(users, first + CHUNK), quotes, random, trading);
            if (System.nanoTime() - said > PROGRESS_EVERY_NANOS) {
                // a large population takes minutes: whoever waits for the server is told it is not stuck
                progress.accept(String.format(java.util.Locale.ROOT, "trade database: populated %d of %d users",
                        Math.min(users, first + CHUNK), users));
                said = System.nanoTime();
            }
        }
        return new PopulationReport(users, quotes, holdings, Duration.ofNanos(System.nanoTime() - start));
    }

    private void insertQuotes(int quotes, Random random) {
        transactions.run("inserting quotes", c -> {
            try (PreparedStatement s = c.prepareStatement(QuoteTable.INSERT)) {
                for (int i = 0; i < quotes; i++) {
                    BigDecimal price = BigDecimal.valueOf(random.nextInt(200) + 1).setScale(2);
                    QuoteTable.bindInsert(s, TradeRules.symbol(i), TradeRules.companyName(i), price);
                    s.addBatch();
                    if ((i + 1) % QUOTE_BATCH == 0) {
                        s.executeBatch();
                    }
                }
                s.executeBatch();
            }
            return null;
        });
    }

    /** Users [first, end): returns the holdings they bought. */
    private int insertUsers(int first, int end, int quotes, Random random, Trading trading) {
        List<NewUser> users = new ArrayList<>(end - first);
        int purchases = 0;
        for (int i = first; i < end; i++) {
            NewUser user = draw(i, quotes, random);
            users.add(user);
            purchases += user.purchases().size();
        }
        String[] hashes = IntStream.range(0, users.size()).parallel()
                .mapToObj(i -> Passwords.hash(TradeRules.PASSWORD)).toArray(String[]::new);
        int[] accountIds = take(KeyBlocks.ACCOUNT, users.size());
        int[] orderIds = take(KeyBlocks.ORDER, purchases);
        int[] holdingIds = take(KeyBlocks.HOLDING, purchases);
        Instant now = UtcTime.now();
        return transactions.run("populating users", c -> {
            insertProfilesAndAccounts(c, users, hashes, accountIds, now);
            int bought = 0;
            for (int u = 0; u < users.size(); u++) {
                for (Purchase p : users.get(u).purchases()) {
                    trading.buy(c, accountIds[u], p.symbol(), p.quantity(), orderIds[bought], now);
                    trading.complete(c, orderIds[bought], holdingIds[bought], now);
                    bought++;
                }
            }
            return bought;
        });
    }

    private static void insertProfilesAndAccounts(Connection c, List<NewUser> users, String[] hashes,
                                                  int[] accountIds, Instant now) throws SQLException {
        try (PreparedStatement profiles = c.prepareStatement(ProfileTable.INSERT);
             PreparedStatement accounts = c.prepareStatement(AccountTable.INSERT)) {
            for (int u = 0; u < users.size(); u++) {
                NewUser user = users.get(u);
                ProfileTable.bindInsert(profiles, user.userId(), hashes[u], user.fullName(), user.address(),
                        user.email(), user.creditCard());
                profiles.addBatch();
                AccountTable.bindInsert(accounts, accountIds[u], user.userId(), user.openingBalance(), now);
                accounts.addBatch();
            }
            profiles.executeBatch();
            accounts.executeBatch();
        }
    }

    /** User i as DayTrader makes it; holdings name s:0..s:(quotes-2), as DayTrader's never picks the last quote. */
    private static NewUser draw(int i, int quotes, Random random) {
        String userId = TradeRules.userId(i);
        String fullName = "first:" + random.nextInt(1000) + " last:" + random.nextInt(5000);
        String address = random.nextInt(1000) + " Oak St.";
        String email = userId.replace(":", "") + "@" + random.nextInt(100) + ".com";
        String creditCard = random.nextInt(100) + "-" + random.nextInt(1000) + "-" + random.nextInt(1000) + "-"
                + random.nextInt(1000);
        BigDecimal openingBalance = BigDecimal.valueOf(random.nextInt(100_000) + 200_000).setScale(2);
        if (i == 0) {
            openingBalance = FIRST_USER_BALANCE;
        }
        int holdings = random.nextInt(TradeRules.MAX_HOLDINGS + 1);
        List<Purchase> purchases = new ArrayList<>(holdings);
        for (int h = 0; h < holdings; h++) {
            int symbol = quotes > 1 ? random.nextInt(quotes - 1) : 0;
            purchases.add(new Purchase(TradeRules.symbol(symbol), random.nextInt(200) + 1));
        }
        return new NewUser(userId, fullName, address, email, creditCard, openingBalance, purchases);
    }

    private int[] take(String keyName, int count) {
        int[] ids = new int[count];
        for (int i = 0; i < count; i++) {
            ids[i] = keys.next(keyName);
        }
        return ids;
    }
}
