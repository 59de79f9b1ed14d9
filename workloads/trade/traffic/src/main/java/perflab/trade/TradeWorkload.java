package perflab.trade;

import perflab.core.config.Quantities;
import perflab.core.result.RunCheck;
import perflab.core.traffic.Traffic;
import perflab.core.workload.Companion;
import perflab.core.workload.OperationInfo;
import perflab.core.workload.Preset;
import perflab.core.workload.ServerSide;
import perflab.core.workload.StackInfo;
import perflab.core.workload.TrafficOptions;
import perflab.core.workload.Workload;
import perflab.core.workload.WorkloadSetting;
import perflab.trade.contract.TradePages;
import perflab.trade.contract.TradeRules;

import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The Trade / DayTrader online brokerage (seeds 002 and 003): users log in, look at their account, portfolio and
 * quotes, buy and sell, in DayTrader's page mix, each client with its own users and cookies, every page checked.
 */
public final class TradeWorkload implements Workload {
    static final String MIX = "mix";
    static final String USERS = "users";
    static final String QUOTES = "quotes";
    static final String DATA_ACCESS = "data-access";
    static final String ORDER_PROCESSING = "order-processing";
    static final String DB = "db";
    static final String DB_URL = "db-url";
    static final String DB_CACHE = "db-cache";
    static final String DB_POOL = "db-pool";
    static final String DB_OUTAGE = "db-outage";
    static final String STATEMENT_CACHE = "statement-cache";
    static final String CACHE = "cache";
    static final String MARKET_SUMMARY_INTERVAL = "market-summary-interval";
    static final String POSTGRESQL = "postgresql";

    private static final List<WorkloadSetting> SETTINGS = List.of(
            WorkloadSetting.choice(MIX, TradeMix.STANDARD.name(), "What users do: standard (DayTrader's scenario: "
                    + "home 20, quote 40 with 1-10 symbols, account 10, portfolio 12, buy, sell, update and logout 4 each, "
                    + "register 2, in % of requests) or jmeter (DayTrader 8's JMeter plan: 20 % REST quotes, the rest its "
                    + "pages, one symbol a quote, a look at the page before each buy, sell and update).",
                    TradeMix.names().toArray(String[]::new)),
            WorkloadSetting.integer(USERS, TradeRules.DEFAULT_USERS, 1, 10_000_000, "Users in the database (uid:0 ...): "
                    + "the server creates them, the clients log in as them, each client its own share; at least --clients.")
                    .forBoth().asDimension(),
            WorkloadSetting.integer(QUOTES, TradeRules.DEFAULT_QUOTES, 2, 10_000_000, "Stock symbols in the database "
                    + "(s:0 ...): the server creates them, quotes and buys pick among them.").forBoth(),
            WorkloadSetting.choice(DATA_ACCESS, "jdbc", "How the server reaches the database: jdbc (direct JDBC, the "
                    + "studies' JDBC mode) or jpa (an ORM, the heir of their EJB mode).", "jdbc", "jpa")
                    .forServer().asDimension(),
            WorkloadSetting.choice(ORDER_PROCESSING, "sync", "sync: a buy or sell completes its order within the "
                    + "request (the user sees it closed); async: a background task completes it after the answer (the "
                    + "user sees it open).", "sync", "async").forServer().asDimension(),
            WorkloadSetting.choice(DB, "h2", "The database: h2 (embedded in the server, nothing to install) or "
                    + "postgresql (a throwaway cluster perflab starts and measures beside the server, from Debian's "
                    + "package postgresql; or the server at --db-url).", "h2", POSTGRESQL).forServer().asDimension(),
            new WorkloadSetting(DB_URL, "URL", null, "An existing PostgreSQL database for --db postgresql, e.g. "
                    + "jdbc:postgresql://127.0.0.1:5432/trade?user=trade, instead of the one perflab starts (it is then "
                    + "not measured); an h2 run ignores it.", WorkloadSetting.Use.SERVER, false,
                    TradeWorkload::postgresqlUrl),
            new WorkloadSetting(DB_CACHE, "DIR|off", null, "Where the PostgreSQL that perflab starts is kept between "
                    + "runs, with the populated template databases each run restores instead of rebuilding "
                    + "(DIR/postgresql-<major>/); off: a fresh cluster every run. Default: ~/.cache/perflab/trade "
                    + "($XDG_CACHE_HOME), as root /var/cache/perflab/trade.", WorkloadSetting.Use.SERVER, false,
                    TradeWorkload::cacheDirectory),
            new WorkloadSetting(DB_OUTAGE, "AFTER+LENGTH", null, "A database outage drill for --db postgresql (the "
                    + "PostgreSQL perflab starts): the database is shut down AFTER it first answers (the server starts "
                    + "and restores its data after that, a few seconds) and started again LENGTH later, e.g. 40s+5s. "
                    + "Pages fail meanwhile (counted as errors); the server must serve again by itself.",
                    WorkloadSetting.Use.SERVER, false, TradeWorkload::outage),
            WorkloadSetting.integer(DB_POOL, 100, 1, 10_000, "Database connections in the server's pool. Default: 100 "
                    + "(the Trade 2 study's).").forServer().asDimension(),
            WorkloadSetting.integer(STATEMENT_CACHE, 2000, 0, 1_000_000, "Prepared statements the server keeps per "
                    + "connection, 0 for none. Default: 2000 (the Trade 2 study's).").forServer().asDimension(),
            WorkloadSetting.integer(CACHE, 2000, 0, 10_000_000, "Quotes the server keeps in its application cache "
                    + "(a quote is dropped when a trade moves its price), 0 for no cache; the market summary has its own "
                    + "--market-summary-interval. Default: 2000 (the z study's default; 10000 did best there).")
                    .forServer().asDimension(),
            WorkloadSetting.duration(MARKET_SUMMARY_INTERVAL, "20000ms", Duration.ZERO, Duration.ofHours(1),
                    "How old the market summary may get before the server computes it again; 0s: on every home page. "
                            + "Default: 20s (DayTrader's).").forServer());

    private static final List<Preset> PRESETS = List.of(
            new Preset("trade2", "the Trade 2 study's run rule: 100 clients, 500,000 requests measured",
                    Map.of("clients", "100", "requests", "500000")),
            new Preset("daytrader8", "DayTrader 8's JMeter plan: 50 clients for 180 s in its mix (20 % REST quotes)",
                    Map.of("clients", "50", "duration", "180s", MIX, TradeMix.JMETER.name())));

    private static final List<StackInfo> STACKS = List.of(new StackInfo("lean",
            "perflab's own: server-rendered pages on Jetty 12, direct JDBC or JPA, H2 or PostgreSQL",
            "workloads/trade/stack-lean", "perflab.trade.lean.TradeServer"),
            StackInfo.ofServerFile("liberty", "the same application in Jakarta EE 10 (servlets, Jakarta Pages, the "
                    + "container's data source) on Open Liberty 26.0.0.3, WebSphere's open successor; JDBC, H2 or "
                    + "PostgreSQL", "workloads/trade/stack-liberty", "servers/trade-liberty.yaml"));

    private static final List<OperationInfo> OPERATIONS = List.of(new OperationInfo("scenario",
            "per-user sessions through DayTrader's pages in the --mix (login, home, quotes, buy, sell, ...)"));

    private static String postgresqlUrl(String value) {
        if (!value.matches("jdbc:postgresql://\\S+")) {
            throw new IllegalArgumentException("--" + DB_URL + ": '" + value + "' is not a PostgreSQL JDBC URL "
                    + "(jdbc:postgresql://host:5432/trade)");
        }
        return value;
    }

    /** "40s+5s" as "40000ms+5000ms" (the companion's --outage); one line for anything else. */
    private static String outage(String value) {
        String[] parts = value.split("\\+", -1);
        if (parts.length != 2) {
            throw new IllegalArgumentException("--" + DB_OUTAGE + ": '" + value + "' is not AFTER+LENGTH (e.g. 40s+5s: "
                    + "the database stops 40 s after it is ready, for 5 s)");
        }
        Duration after = Quantities.duration("--" + DB_OUTAGE, parts[0]);
        Duration length = Quantities.duration("--" + DB_OUTAGE, parts[1]);
        if (length.isZero() || length.compareTo(Duration.ofHours(1)) > 0) {
            throw new IllegalArgumentException("--" + DB_OUTAGE + ": the outage lasts 1ms..1h, got '" + parts[1] + "'");
        }
        return after.toMillis() + "ms+" + length.toMillis() + "ms";
    }

    private static String cacheDirectory(String value) {
        if (value.equalsIgnoreCase("off")) {
            return "off";
        }
        if (value.isEmpty() || value.contains("\0")) {
            throw new IllegalArgumentException("--" + DB_CACHE + ": '" + value + "' is not a directory or off");
        }
        return java.nio.file.Path.of(value).toAbsolutePath().normalize().toString();
    }

    @Override
    public String name() {
        return "trade";
    }

    @Override
    public String description() {
        return "an online brokerage (Trade / DayTrader): per-user web sessions, DayTrader's page mix, a database behind";
    }

    @Override
    public List<StackInfo> stacks() {
        return STACKS;
    }

    @Override
    public List<OperationInfo> operations() {
        return OPERATIONS;
    }

    /** The login form: what a person opens first, and what a bare --target gets. */
    @Override
    public String servicePath() {
        return TradePages.LOGIN;
    }

    @Override
    public List<WorkloadSetting> settings() {
        return SETTINGS;
    }

    @Override
    public List<Preset> presets() {
        return PRESETS;
    }

    @Override
    public Traffic traffic(TrafficOptions options) {
        operation(options.operation());
        return new TradeTraffic(TradeMix.named(options.setting(MIX)), Integer.parseInt(options.setting(USERS)),
                Integer.parseInt(options.setting(QUOTES)), TradeTraffic.basePath(options.target()));
    }

    /** The consistency audit of the books ({@link TradeAudit}): a violation fails the run. */
    @Override
    public List<RunCheck> checksAfterDrive(URI target) {
        return List.of(TradeAudit.ask(target));
    }

    /**
     * The SUT gets every server setting as {@code --name value}, the population size among them (it fills the
     * database with as many users and symbols as the traffic picks from), except {@code --db-cache}, which is the
     * database companion's.
     *
     * <p>{@code --db postgresql} without {@code --db-url}: perflab starts PostgreSQL as a companion before the SUT
     * ({@link ThrowawayPostgres}: a throwaway cluster restored from a cache, sampled with its backends as the run's
     * database) and the SUT gets {@code --db-url jdbc:postgresql://127.0.0.1:{postgres.port}/trade?user=postgres},
     * the port filled in from the companion's READY line. With {@code --db-url} the SUT uses that server, which perflab
     * neither starts nor measures. {@code --db-url} goes to the SUT only with {@code --db postgresql}, so that a sweep
     * over both databases can name the PostgreSQL one once. {@code --db-outage} is the companion's too (its
     * {@code --outage}), and only that companion's: perflab stops no database it did not start.
     */
    /**
     * A server file's server may ask for the PostgreSQL perflab starts ({@code companions: [postgres]}) whatever
     * {@code --db} says, for that is its stacks' setting: its file reaches the database at {@code {postgres.url}}
     * ({@code jdbc:postgresql://127.0.0.1:PORT/trade?user=postgres}; the server makes {@code trade} itself, as the lean
     * stack restores it from a template). The cluster lets in the default pool's connections and
     * {@value ThrowawayPostgres#CONNECTION_SLACK} more.
     */
    @Override
    public List<Companion> serverFileCompanions(Map<String, String> settings) {
        return List.of(ThrowawayPostgres.companion(Integer.parseInt(settings.get(DB_POOL)), settings.get(DB_CACHE),
                settings.get(DB_OUTAGE)));
    }

    /** The PostgreSQL perflab starts keeps its cache where {@code --db-cache} says and runs {@code --db-outage}'s drill. */
    @Override
    public Set<String> companionSettings(String companion) {
        return companion.equals(ThrowawayPostgres.NAME) ? Set.of(DB_CACHE, DB_OUTAGE) : Set.of();
    }

    @Override
    public ServerSide serverSide(Map<String, String> settings) {
        Map<String, String> sut = new LinkedHashMap<>(settings);
        sut.remove(DB_CACHE);
        String outage = sut.remove(DB_OUTAGE);
        if (outage != null && (!POSTGRESQL.equals(settings.get(DB)) || settings.containsKey(DB_URL))) {
            throw new IllegalArgumentException("--" + DB_OUTAGE + " stops the PostgreSQL perflab starts: it needs --db "
                    + POSTGRESQL + " without --" + DB_URL);
        }
        if (!POSTGRESQL.equals(settings.get(DB))) {
            sut.remove(DB_URL);
            return ServerSide.sutOnly(sut);
        }
        if (settings.containsKey(DB_URL)) {
            return ServerSide.sutOnly(sut);
        }
        sut.put(DB_URL, ThrowawayPostgres.SUT_URL);
        return new ServerSide(List.of(ThrowawayPostgres.companion(Integer.parseInt(settings.get(DB_POOL)),
                settings.get(DB_CACHE), outage)), sut);
    }
}
