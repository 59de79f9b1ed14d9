package perflab.trade.lean;

import perflab.core.sut.ServerSettings;
import perflab.core.sut.SutArgs;
import perflab.trade.contract.TradeRules;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * The lean brokerage server's settings as perflab passes them ({@code --name value}, the trade workload's server
 * settings beside perflab's common ones), checked once at start.
 *
 * @param populationCache where populated databases are kept between runs (H2 files); see
 *                        {@link perflab.trade.lean.data.PopulatedDatabase}
 */
public record TradeServerSettings(ServerSettings server, int users, int quotes, DataAccess dataAccess, TradeSettings trade,
                                  String db, String dbUrl, int dbPool, int statementCache, Path populationCache) {
    public static final Set<String> NAMES;

    static {
        Set<String> names = new HashSet<>(ServerSettings.NAMES);
        names.addAll(Set.of("users", "quotes", "data-access", "order-processing", "db", "db-url", "db-pool",
                "statement-cache", "cache", "market-summary-interval", "population-cache"));
        NAMES = Set.copyOf(names);
    }

    public TradeServerSettings {
        if (users < 0 || quotes < 2) {
            throw new IllegalArgumentException("--users must be 0 or more and --quotes 2 or more, got " + users + " and " + quotes);
        }
        if (!db.equals("h2") && !db.equals("postgresql")) {
            throw new IllegalArgumentException("--db must be h2 or postgresql, got '" + db + "'");
        }
        if (db.equals("postgresql") && dbUrl == null) {
            throw new IllegalArgumentException("--db postgresql needs --db-url jdbc:postgresql://host:port/trade");
        }
        if (dbPool < 1 || statementCache < 0) {
            throw new IllegalArgumentException("--db-pool must be 1 or more, --statement-cache 0 or more");
        }
    }

    public static TradeServerSettings from(SutArgs args) {
        TradeSettings trade = TradeSettings.from(name -> args.get(name, null));
        return new TradeServerSettings(ServerSettings.from(args), args.getInt("users", TradeRules.DEFAULT_USERS),
                args.getInt("quotes", TradeRules.DEFAULT_QUOTES), DataAccess.parse(args.get("data-access", "jdbc")),
                trade, args.get("db", "h2").toLowerCase(Locale.ROOT), args.get("db-url", null),
                args.getInt("db-pool", 100), args.getInt("statement-cache", 2000), Path.of(args.get("population-cache",
                        perflab.trade.lean.data.PopulatedDatabase.defaultCache().toString())));
    }
}
