package perflab.trade.lean.data;

import perflab.trade.contract.TradeRules;
import perflab.trade.lean.Account;
import perflab.trade.lean.AuditReport;
import perflab.trade.lean.Holding;
import perflab.trade.lean.MarketSummary;
import perflab.trade.lean.Order;
import perflab.trade.lean.OrderProcessing;
import perflab.trade.lean.PopulationReport;
import perflab.trade.lean.Profile;
import perflab.trade.lean.Quote;
import perflab.trade.lean.TradeInput;
import perflab.trade.lean.TradeService;
import perflab.trade.lean.TradeSettings;

import javax.sql.DataSource;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The brokerage over JDBC. Each operation takes its ids, then runs in one transaction (see {@link Transactions});
 * in async mode a buy or sell commits its open order first and then hands the completion to {@link
 * AsyncCompletions}. The schema is created where it is missing.
 */
public final class JdbcTradeService implements TradeService {
    /** For a completion whose order is a sell: it creates no holding, so it needs no holding id. */
    private static final int NO_HOLDING = -1;

    private final Transactions transactions;
    private final KeyBlocks keys;
    private final Trading trading = new Trading(ThreadLocalRandom::current);
    private final boolean sync;
    private final MarketSummaryCache marketSummary;
    private final AsyncCompletions completions;
    private final QuoteCache quoteCache;

    public JdbcTradeService(DataSource dataSource, TradeSettings settings) {
        this(dataSource, settings, ContainerResources.NONE);
    }

    /** @param lent what an application server lends the service (its executor, its cache's map), or NONE */
    public JdbcTradeService(DataSource dataSource, TradeSettings settings, ContainerResources lent) {
        Schema.create(dataSource);
        this.transactions = new Transactions(dataSource);
        this.keys = new KeyBlocks(dataSource);
        this.sync = settings.orderProcessing() == OrderProcessing.SYNC;
        this.marketSummary = new MarketSummaryCache(settings.marketSummaryInterval(),
                () -> transactions.run("market summary", c -> QuoteTable.summary(c, UtcTime.now())),
                System::nanoTime);
        this.quoteCache = QuoteCache.of(settings.quoteCacheEntries(), lent.quoteMap());
        this.completions = AsyncCompletions.of(settings, lent.completionExecutor(), this::completeLater);
    }

    @Override
    public Optional<Account> login(String userId, String password) {
        if (!Passwords.verify(userId, password,
                id -> transactions.run("login", c -> ProfileTable.passwordHash(c, id)))) {
            return Optional.empty();
        }
        return transactions.run("login", c -> {
            AccountTable.recordLogin(c, userId, UtcTime.now());
            return AccountTable.find(c, userId);
        });
    }

    @Override
    public void logout(String userId) {
        if (userId != null) {
            transactions.run("logout", c -> {
                AccountTable.recordLogout(c, userId);
                return null;
            });
        }
    }

    @Override
    public Account register(String userId, String password, String fullName, String address, String email,
                            String creditCard, BigDecimal openingBalance) {
        TradeInput.checkUserId(userId);
        TradeInput.checkProfile(password, fullName, address, email, creditCard);
        TradeInput.checkOpeningBalance(openingBalance);
        String hash = Passwords.hash(password);
        int accountId = keys.next(KeyBlocks.ACCOUNT);
        return transactions.run("registering a user", c -> {
            if (!ProfileTable.insert(c, userId, hash, fullName, address, email, creditCard)) {
                throw Trading.userTaken(userId);
            }
            return AccountTable.insert(c, accountId, userId, openingBalance, UtcTime.now());
        });
    }

    @Override
    public Optional<Account> account(String userId) {
        return userId == null ? Optional.empty() : transactions.run("reading an account",
                c -> AccountTable.find(c, userId));
    }

    @Override
    public Optional<Profile> profile(String userId) {
        return userId == null ? Optional.empty() : transactions.run("reading a profile",
                c -> ProfileTable.find(c, userId));
    }

    @Override
    public Profile updateProfile(String userId, String password, String fullName, String address, String email,
                                 String creditCard) {
        TradeInput.checkProfile(password, fullName, address, email, creditCard);
        String hash = Passwords.hash(password);
        boolean updated = userId != null && transactions.run("updating a profile",
                c -> ProfileTable.update(c, userId, hash, fullName, address, email, creditCard));
        if (!updated) {
            throw Trading.unknownUser(userId);
        }
        return new Profile(userId, fullName, address, email, creditCard);
    }

    @Override
    public List<Holding> holdings(String userId) {
        return userId == null ? List.of() : transactions.run("reading holdings",
                c -> HoldingTable.ofUser(c, userId));
    }

    @Override
    public List<Quote> quotes(List<String> symbols) {
        List<String> distinct = List.copyOf(new LinkedHashSet<>(TradeInput.checkSymbols(symbols)));
        return quoteCache.get(distinct, some -> transactions.run("reading quotes", c -> QuoteTable.find(c, some)));
    }

    @Override
    public Order buy(String userId, String symbol, double quantity) {
        TradeInput.checkQuantity(quantity);
        TradeInput.checkText("symbol", symbol);
        int orderId = keys.next(KeyBlocks.ORDER);
        int holdingId = sync ? keys.next(KeyBlocks.HOLDING) : NO_HOLDING;
        Order order = transactions.run("buying", c -> {
            Order open = trading.buy(c, accountOf(c, userId), symbol, quantity, orderId, UtcTime.now());
            return sync ? trading.complete(c, orderId, holdingId, UtcTime.now()) : open;
        });
        return completions.submitIfOpen(quoteCache.committed(order));
    }

    @Override
    public Order sell(String userId, int holdingId) {
        int orderId = keys.next(KeyBlocks.ORDER);
        Order order = transactions.run("selling", c -> {
            Order open = trading.sell(c, accountOf(c, userId), holdingId, orderId, UtcTime.now());
            return sync && open.isOpen() ? trading.complete(c, orderId, NO_HOLDING, UtcTime.now()) : open;
        });
        return completions.submitIfOpen(quoteCache.committed(order));
    }

    @Override
    public Order completeOrder(int orderId) {
        // the order's type is unknown before its transaction: a sell wastes the id (ids come in blocks of 1,000)
        int holdingId = keys.next(KeyBlocks.HOLDING);
        return quoteCache.committed(transactions.run("completing order " + orderId,
                c -> trading.complete(c, orderId, holdingId, UtcTime.now())));
    }

    @Override
    public List<Order> closedOrders(String userId) {
        return userId == null ? List.of() : transactions.run("reading closed orders",
                c -> OrderTable.takeClosed(c, userId, UtcTime.now()));
    }

    @Override
    public MarketSummary marketSummary() {
        return marketSummary.get();
    }

    @Override
    public PopulationReport populate(int users, int quotes, long seed, java.util.function.Consumer<String> progress) {
        PopulationReport report = new Population(transactions, keys).run(users, quotes, seed, progress);
        marketSummary.invalidate();
        quoteCache.clear();
        return report;
    }

    @Override
    public AuditReport audit() {
        return new Audit(transactions).run();
    }

    @Override
    public boolean awaitCompletions(java.time.Duration limit) {
        return completions.awaitIdle(limit);
    }

    /** Asynchronous completions that failed since start (their orders stay open); 0 in sync mode. */
    public long failedCompletions() {
        return completions.failures();
    }

    @Override
    public void close() {
        completions.close();
    }

    private void completeLater(Order order) {
        int holdingId = order.isBuy() ? keys.next(KeyBlocks.HOLDING) : NO_HOLDING;
        quoteCache.committed(transactions.run("completing order " + order.orderId(),
                c -> trading.complete(c, order.orderId(), holdingId, UtcTime.now())));
    }

    private static int accountOf(Connection c, String userId) throws SQLException {
        if (userId == null) {
            throw Trading.unknownUser(null);
        }
        return AccountTable.idOf(c, userId).orElseThrow(() -> Trading.unknownUser(userId));
    }

}
