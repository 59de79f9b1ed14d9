package perflab.trade.lean.jpa;

import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceException;
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
import perflab.trade.lean.data.AsyncCompletions;
import perflab.trade.lean.data.ContainerResources;
import perflab.trade.lean.data.Audit;
import perflab.trade.lean.data.KeyBlocks;
import perflab.trade.lean.data.MarketSummaryCache;
import perflab.trade.lean.data.Passwords;
import perflab.trade.lean.data.Population;
import perflab.trade.lean.data.Trading;
import perflab.trade.lean.data.Transactions;
import perflab.trade.lean.data.QuoteCache;
import perflab.trade.lean.data.UtcTime;

import javax.sql.DataSource;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

import static jakarta.persistence.LockModeType.PESSIMISTIC_WRITE;

/**
 * The brokerage over JPA: the Trade studies' EJB mode as it is written today, against {@code JdbcTradeService}'s
 * JDBC. The same tables, keys, rules, refusals and failures; what differs is only how rows are read and written:
 * entities in a persistence context per operation, JPQL, and changes flushed at commit. Plain jakarta.persistence:
 * the provider and the transactions are the stack's ({@link PersistenceContexts}: Hibernate on the lean stack,
 * EclipseLink in a stateless session bean on Liberty).
 *
 * <p>Each operation takes its ids, then runs in one transaction ({@link EntityTransactions}); in async mode a buy or
 * sell commits its open order first and then hands the completion to {@link AsyncCompletions}. The population and
 * the audit stay JDBC on the same data source, as DayTrader resets its database over JDBC whatever the mode. The
 * schema must exist (the JDBC mode's schema.sql, {@code Schema.create}) before the persistence unit starts.
 */
public final class JpaTradeService implements TradeService {
    /** For a completion whose order is a sell: it creates no holding, so it needs no holding id. */
    private static final int NO_HOLDING = -1;
    private static final String ACCOUNT_ID = "select a.accountId from AccountEntity a where a.userId = :userId";
    private static final String ACCOUNT = "select a from AccountEntity a where a.userId = :userId";
    private static final String HOLDINGS = "select h, q.price from HoldingEntity h"
            + " join AccountEntity a on a.accountId = h.accountId"
            + " join QuoteEntity q on q.symbol = h.symbol"
            + " where a.userId = :userId order by h.holdingId";
    // found by the closed_orders index, (account, status)
    private static final String CLOSED_ORDERS = "select o from OrderEntity o"
            + " where o.accountId = :accountId and o.status = '" + TradeRules.CLOSED + "' order by o.orderId";
    private static final String INDEX = "select count(q), sum(q.price), sum(q.open), sum(q.volume) from QuoteEntity q";
    // the symbol breaks ties, so that equal changes list the same way every time
    private static final String GAINERS = "select q from QuoteEntity q order by q.change desc, q.symbol";
    private static final String LOSERS = "select q from QuoteEntity q order by q.change asc, q.symbol";

    private final DataSource dataSource;
    private final PersistenceContexts contexts;
    private final EntityTransactions transactions;
    private final KeyBlocks keys;
    private final EntityTrading trading = new EntityTrading(ThreadLocalRandom::current);
    private final boolean sync;
    private final MarketSummaryCache marketSummary;
    private final AsyncCompletions completions;
    private final QuoteCache quoteCache;

    /**
     * @param dataSource the connections of the keys, the population and the audit (JDBC): the caller's
     * @param contexts   where the entity work runs; closed with the service
     * @param lent       what an application server lends the service (its executor, its cache's map), or NONE
     */
    public JpaTradeService(DataSource dataSource, PersistenceContexts contexts, TradeSettings settings,
                           ContainerResources lent) {
        this.dataSource = dataSource;
        this.contexts = contexts;
        this.transactions = new EntityTransactions(contexts);
        this.keys = new KeyBlocks(dataSource);
        this.sync = settings.orderProcessing() == OrderProcessing.SYNC;
        this.marketSummary = new MarketSummaryCache(settings.marketSummaryInterval(),
                () -> transactions.read("market summary", this::summary), System::nanoTime);
        this.quoteCache = QuoteCache.of(settings.quoteCacheEntries(), lent.quoteMap());
        this.completions = AsyncCompletions.of(settings, lent.completionExecutor(), this::completeLater);
    }

    @Override
    public Optional<Account> login(String userId, String password) {
        if (!Passwords.verify(userId, password, id -> transactions.read("login", em ->
                Optional.ofNullable(em.find(ProfileEntity.class, id)).map(ProfileEntity::passwordHash)))) {
            return Optional.empty();
        }
        return transactions.write("login", em -> lockedAccount(em, userId).map(account -> {
            account.recordLogin(UtcTime.now());
            return account.toAccount();
        }));
    }

    @Override
    public void logout(String userId) {
        if (userId != null) {
            transactions.write("logout", em -> {
                lockedAccount(em, userId).ifPresent(AccountEntity::recordLogout);
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
        return transactions.write("registering a user", em -> {
            em.persist(new ProfileEntity(userId, hash, fullName, address, email, creditCard));
            try {
                // now, not at commit: a taken user id is a refusal, not a failure
                em.flush();
            } catch (PersistenceException e) {
                if (EntityTransactions.duplicateKey(e)) {
                    throw Trading.userTaken(userId);
                }
                throw e;
            }
            AccountEntity account = new AccountEntity(accountId, userId, openingBalance, UtcTime.now());
            em.persist(account);
            return account.toAccount();
        });
    }

    @Override
    public Optional<Account> account(String userId) {
        return userId == null ? Optional.empty() : transactions.read("reading an account",
                em -> first(em.createQuery(ACCOUNT, AccountEntity.class).setParameter("userId", userId)
                        .getResultList()).map(AccountEntity::toAccount));
    }

    @Override
    public Optional<Profile> profile(String userId) {
        return userId == null ? Optional.empty() : transactions.read("reading a profile",
                em -> Optional.ofNullable(em.find(ProfileEntity.class, userId)).map(ProfileEntity::toProfile));
    }

    @Override
    public Profile updateProfile(String userId, String password, String fullName, String address, String email,
                                 String creditCard) {
        TradeInput.checkProfile(password, fullName, address, email, creditCard);
        String hash = Passwords.hash(password);
        boolean updated = userId != null && transactions.write("updating a profile", em -> {
            ProfileEntity profile = em.find(ProfileEntity.class, userId);
            if (profile == null) {
                return false;
            }
            profile.update(hash, fullName, address, email, creditCard);
            return true;
        });
        if (!updated) {
            throw Trading.unknownUser(userId);
        }
        return new Profile(userId, fullName, address, email, creditCard);
    }

    @Override
    public List<Holding> holdings(String userId) {
        return userId == null ? List.of() : transactions.read("reading holdings", em -> {
            List<Holding> holdings = new ArrayList<>();
            for (Object[] row : em.createQuery(HOLDINGS, Object[].class).setParameter("userId", userId)
                    .getResultList()) {
                holdings.add(((HoldingEntity) row[0]).toHolding((BigDecimal) row[1]));
            }
            return holdings;
        });
    }

    @Override
    public List<Quote> quotes(List<String> symbols) {
        List<String> distinct = List.copyOf(new LinkedHashSet<>(TradeInput.checkSymbols(symbols)));
        // one find by key per symbol (DayTrader's getQuote per symbol): Hibernate prepares that select once, where
        // its findMultiple and a JPQL IN query make their SQL again for each new number of symbols on H2 and cost
        // two to three times as much CPU in bench/trade-data-access.sh (measured on the lean stack)
        return quoteCache.get(distinct, some -> transactions.read("reading quotes", em -> {
            List<Quote> quotes = new ArrayList<>(some.size());
            for (String symbol : some) {
                QuoteEntity quote = em.find(QuoteEntity.class, symbol);
                if (quote != null) {
                    quotes.add(quote.toQuote());
                }
            }
            return quotes;
        }));
    }

    @Override
    public Order buy(String userId, String symbol, double quantity) {
        TradeInput.checkQuantity(quantity);
        TradeInput.checkText("symbol", symbol);
        int orderId = keys.next(KeyBlocks.ORDER);
        int holdingId = sync ? keys.next(KeyBlocks.HOLDING) : NO_HOLDING;
        Order order = transactions.write("buying", em -> {
            OrderEntity open = trading.buy(em, accountOf(em, userId), symbol, quantity, orderId, UtcTime.now());
            return sync ? trading.complete(em, open, holdingId, UtcTime.now()) : open.toOrder();
        });
        return completions.submitIfOpen(quoteCache.committed(order));
    }

    @Override
    public Order sell(String userId, int holdingId) {
        int orderId = keys.next(KeyBlocks.ORDER);
        Order order = transactions.write("selling", em -> {
            OrderEntity open = trading.sell(em, accountOf(em, userId), holdingId, orderId, UtcTime.now());
            return sync && open.isOpen() ? trading.complete(em, open, NO_HOLDING, UtcTime.now()) : open.toOrder();
        });
        return completions.submitIfOpen(quoteCache.committed(order));
    }

    @Override
    public Order completeOrder(int orderId) {
        // the order's type is unknown before its transaction: a sell wastes the id (ids come in blocks of 1,000)
        int holdingId = keys.next(KeyBlocks.HOLDING);
        return quoteCache.committed(transactions.write("completing order " + orderId,
                em -> trading.complete(em, orderId, holdingId, UtcTime.now())));
    }

    @Override
    public List<Order> closedOrders(String userId) {
        return userId == null ? List.of() : transactions.write("reading closed orders", em -> {
            Optional<Integer> accountId = first(em.createQuery(ACCOUNT_ID, Integer.class)
                    .setParameter("userId", userId).getResultList());
            if (accountId.isEmpty()) {
                return List.of();
            }
            // locked, so that two requests of one user at once alert each order once
            List<OrderEntity> closed = em.createQuery(CLOSED_ORDERS, OrderEntity.class)
                    .setParameter("accountId", accountId.get()).setLockMode(PESSIMISTIC_WRITE).getResultList();
            List<Order> taken = new ArrayList<>(closed.size());
            Instant now = UtcTime.now();
            for (OrderEntity order : closed) {
                taken.add(order.toOrder());
                order.alerted(now);
            }
            return taken;
        });
    }

    @Override
    public MarketSummary marketSummary() {
        return marketSummary.get();
    }

    @Override
    public PopulationReport populate(int users, int quotes, long seed, java.util.function.Consumer<String> progress) {
        // the same JDBC population as the JDBC mode, on the same keys; no second-level cache holds the old rows
        PopulationReport report = new Population(new Transactions(dataSource), keys).run(users, quotes, seed, progress);
        marketSummary.invalidate();
        quoteCache.clear();
        return report;
    }

    @Override
    public AuditReport audit() {
        return new Audit(new Transactions(dataSource)).run();
    }

    @Override
    public boolean awaitCompletions(java.time.Duration limit) {
        return completions.awaitIdle(limit);
    }

    /** Asynchronous completions that failed since start (their orders stay open); 0 in sync mode. */
    public long failedCompletions() {
        return completions.failures();
    }

    /** Drains the asynchronous completions, then closes the persistence contexts (not the data source). */
    @Override
    public void close() {
        try {
            completions.close();
        } finally {
            contexts.close();
        }
    }

    private void completeLater(Order order) {
        int holdingId = order.isBuy() ? keys.next(KeyBlocks.HOLDING) : NO_HOLDING;
        quoteCache.committed(transactions.write("completing order " + order.orderId(),
                em -> trading.complete(em, order.orderId(), holdingId, UtcTime.now())));
    }

    /** DayTrader's market summary: the index over all quotes and the top movers by change. */
    private MarketSummary summary(EntityManager em) {
        Object[] index = em.createQuery(INDEX, Object[].class).getSingleResult();
        long count = (Long) index[0];
        return new MarketSummary(mean((BigDecimal) index[1], count), mean((BigDecimal) index[2], count),
                index[3] == null ? 0 : (Double) index[3], movers(em, GAINERS), movers(em, LOSERS), UtcTime.now());
    }

    private static List<Quote> movers(EntityManager em, String jpql) {
        return em.createQuery(jpql, QuoteEntity.class).setMaxResults(TradeRules.TOP_MOVERS).getResultList()
                .stream().map(QuoteEntity::toQuote).toList();
    }

    private static BigDecimal mean(BigDecimal sum, long count) {
        if (count == 0 || sum == null) {
            return BigDecimal.ZERO.setScale(2);
        }
        return sum.divide(BigDecimal.valueOf(count), 2, RoundingMode.HALF_UP);
    }

    /** The user's account, read under its row lock: a login or logout changes its counts. */
    private static Optional<AccountEntity> lockedAccount(EntityManager em, String userId) {
        return first(em.createQuery(ACCOUNT, AccountEntity.class).setParameter("userId", userId)
                .setLockMode(PESSIMISTIC_WRITE).getResultList());
    }

    /** The user's account id, read as a value: the trade locks the account itself when it changes the balance. */
    private static int accountOf(EntityManager em, String userId) {
        if (userId == null) {
            throw Trading.unknownUser(null);
        }
        return first(em.createQuery(ACCOUNT_ID, Integer.class).setParameter("userId", userId).getResultList())
                .orElseThrow(() -> Trading.unknownUser(userId));
    }

    private static <T> Optional<T> first(List<T> rows) {
        return rows.isEmpty() ? Optional.empty() : Optional.of(rows.get(0));
    }

}
