package perflab.trade.lean.data;

import com.zaxxer.hikari.HikariDataSource;
import perflab.trade.contract.TradeRules;
import perflab.trade.lean.AuditReport;
import perflab.trade.lean.PopulationReport;
import perflab.trade.lean.TradeSettings;

/**
 * Times a population and the audit after it (bench/trade-population.sh runs it; not a test: a timing belongs in a
 * benchmark's output, not in an assertion). Arguments: [users] [quotes] [JDBC URL].
 */
public final class PopulationTiming {
    private PopulationTiming() {
    }

    public static void main(String[] args) {
        int users = args.length > 0 ? Integer.parseInt(args[0]) : TradeRules.DEFAULT_USERS;
        int quotes = args.length > 1 ? Integer.parseInt(args[1]) : TradeRules.DEFAULT_QUOTES;
        String url = args.length > 2 ? args[2] : TradeDatabase.DEFAULT_URL;
        try (HikariDataSource ds = TradeDatabase.open(url, 4, TradeDatabase.DEFAULT_STATEMENT_CACHE);
             JdbcTradeService service = new JdbcTradeService(ds, TradeSettings.defaults())) {
            PopulationReport report = service.populate(users, quotes, 1);
            long start = System.nanoTime();
            AuditReport audit = service.audit();
            System.out.printf("populated %d users, %d quotes, %d holdings in %.1f s; audit of %d accounts in %.1f s:"
                            + " %s%n", report.users(), report.quotes(), report.holdings(),
                    report.elapsed().toMillis() / 1000.0, audit.accountsChecked(),
                    (System.nanoTime() - start) / 1e9, audit.clean() ? "clean" : audit.firstViolations());
        }
    }
}
