package perflab.trade.lean;

import com.sun.management.OperatingSystemMXBean;
import com.sun.management.ThreadMXBean;
import com.zaxxer.hikari.HikariDataSource;
import perflab.trade.contract.TradeRules;
import perflab.trade.lean.data.TradeDatabase;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * CPU per operation of one data access mode (bench/trade-data-access.sh runs it, alternating the modes in fresh
 * JVMs; not a test: a timing belongs in a benchmark's output, not in an assertion). One thread calls the service
 * directly, without the web layer, so that the difference is the data access's: DayTrader's home, quote, buy and
 * sell in its mix's proportions (20 : 40 : 4 : 4), on a population in in-memory H2 (or the database given).
 *
 * <p>Arguments: mode (jdbc|jpa) [users] [quotes] [warm-up operations] [measured operations] [operation: mix (the
 * default), home, quote, buy or sell, to see which one costs what] [JDBC URL]. Prints the warm-up ramp, then one line:
 * operations per CPU-second of the whole process (JIT and GC included: what the mode costs the machine), per
 * wall-second, and bytes allocated per operation by the calling thread.
 */
public final class DataAccessTiming {
    private DataAccessTiming() {
    }

    private static final int CHUNK = 5_000;
    private static final int MAX_SYMBOLS = 5;

    public static void main(String[] args) {
        DataAccess access = DataAccess.parse(args[0]);
        int users = args.length > 1 ? Integer.parseInt(args[1]) : 1_000;
        int quotes = args.length > 2 ? Integer.parseInt(args[2]) : 1_000;
        int warmUp = args.length > 3 ? Integer.parseInt(args[3]) : 150_000;
        int measured = args.length > 4 ? Integer.parseInt(args[4]) : 100_000;
        String operation = args.length > 5 ? args[5] : "mix";
        String url = args.length > 6 ? args[6] : "jdbc:h2:mem:trade-timing";
        try (HikariDataSource ds = TradeDatabase.open(url, 4, TradeDatabase.DEFAULT_STATEMENT_CACHE);
             TradeService service = access.open(ds, TradeSettings.defaults())) {
            service.populate(users, quotes, 1);
            Client client = new Client(service, users, quotes, new SplittableRandom(7), operation);
            StringBuilder ramp = new StringBuilder();
            for (int done = 0; done < warmUp; done += CHUNK) {
                ramp.append(' ').append(Math.round(run(client, Math.min(CHUNK, warmUp - done)).perCpuSecond()));
            }
            System.out.println(access + " " + operation + " warm-up ramp (ops/CPU-s per " + CHUNK + "):" + ramp);
            Figures f = run(client, measured);
            if (!service.audit().clean()) {
                throw new IllegalStateException("the books do not agree after the run: " + service.audit());
            }
            System.out.printf(Locale.ROOT, "%s %s ops=%d cpu_s=%.2f ops_per_cpu_s=%.0f ops_per_s=%.0f"
                            + " alloc_bytes_per_op=%.0f gc_ms=%d%n", access, operation, measured, f.cpuNanos / 1e9,
                    f.perCpuSecond(), measured / (f.wallNanos / 1e9), (double) f.allocated / measured, f.gcMillis);
        }
    }

    private record Figures(int ops, long cpuNanos, long wallNanos, long allocated, long gcMillis) {
        double perCpuSecond() {
            return ops / (cpuNanos / 1e9);
        }
    }

    private static Figures run(Client client, int ops) {
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().getId();
        long gc = gcMillis();
        long alloc = threads.getThreadAllocatedBytes(thread);
        long cpu = os.getProcessCpuTime();
        long wall = System.nanoTime();
        for (int i = 0; i < ops; i++) {
            client.next();
        }
        return new Figures(ops, os.getProcessCpuTime() - cpu, System.nanoTime() - wall,
                threads.getThreadAllocatedBytes(thread) - alloc, gcMillis() - gc);
    }

    private static long gcMillis() {
        long total = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            total += Math.max(0, gc.getCollectionTime());
        }
        return total;
    }

    /** The operations of random populated users, as their pages call the service. */
    private static final class Client {
        private final TradeService service;
        private final int users;
        private final int quotes;
        private final SplittableRandom random;
        /** Where the pick of each operation starts and how far it spreads: the whole mix, or one operation. */
        private final int from;
        private final int spread;

        Client(TradeService service, int users, int quotes, SplittableRandom random, String operation) {
            this.service = service;
            this.users = users;
            this.quotes = quotes;
            this.random = random;
            int[] range = switch (operation) {
                case "mix" -> new int[]{0, 68};
                case "home" -> new int[]{0, 20};
                case "quote" -> new int[]{20, 40};
                case "buy" -> new int[]{60, 4};
                case "sell" -> new int[]{64, 4};
                default -> throw new IllegalArgumentException("operation '" + operation
                        + "' is unknown; use mix, home, quote, buy or sell");
            };
            this.from = range[0];
            this.spread = range[1];
        }

        void next() {
            String user = TradeRules.userId(random.nextInt(users));
            int pick = from + random.nextInt(spread);
            if (pick < 20) {
                // the home page: the account, the holdings' value, the market summary
                service.account(user);
                service.holdings(user);
                service.marketSummary();
            } else if (pick < 60) {
                service.quotes(symbols(1 + random.nextInt(MAX_SYMBOLS)));
            } else if (pick < 64) {
                service.buy(user, TradeRules.symbol(random.nextInt(quotes)), 1 + random.nextInt(200));
            } else {
                // the portfolio page, then a sell of one of its holdings (a buy when it has none)
                List<Holding> holdings = service.holdings(user);
                if (holdings.isEmpty()) {
                    service.buy(user, TradeRules.symbol(random.nextInt(quotes)), 1 + random.nextInt(200));
                } else {
                    service.sell(user, holdings.get(random.nextInt(holdings.size())).holdingId());
                }
            }
        }

        private List<String> symbols(int n) {
            List<String> symbols = new ArrayList<>(n);
            while (symbols.size() < n) {
                String s = TradeRules.symbol(random.nextInt(quotes));
                if (!symbols.contains(s)) {
                    symbols.add(s);
                }
            }
            return symbols;
        }
    }
}
