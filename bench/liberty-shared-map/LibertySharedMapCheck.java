import com.ibm.ws.cache.BatchUpdateDaemon;
import com.ibm.ws.cache.Cache;
import com.ibm.ws.cache.CacheConfig;
import com.ibm.ws.cache.DistributedMapImpl;
import com.ibm.ws.cache.InvalidationAuditDaemon;
import com.ibm.ws.cache.NullRemoteServices;
import com.ibm.ws.cache.TimeLimitDaemon;
import perflab.trade.contract.TradeRules;
import perflab.trade.lean.Order;
import perflab.trade.lean.Quote;
import perflab.trade.lean.data.QuoteCache;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * Liberty's dynamic cache (its DistributedMap, DistributedMapImpl) driven outside the server, as trade's liberty stack
 * uses it for quotes. Cache.getCacheEntry finds the pooled CacheEntry without a lock and reads its value afterwards;
 * an eviction or removal meanwhile returns that entry to the pool and reuses it for another key, so a get can answer
 * with another key's value. Phase 1 counts such gets on the raw map; phase 2 counts the pages trade's quote cache
 * (QuoteCache.of over such a map, which checks that each entry names its symbol) gets wrong over it: none expected.
 *
 * <p>Usage: java -cp LIBERTY-JARS:TRADE-JARS:. LibertySharedMapCheck SECONDS THREADS (bench/liberty-shared-map.sh).
 * Exit status 0 when phase 2 had no wrong page, 1 otherwise; phase 1's count is evidence, not a failure.
 */
public final class LibertySharedMapCheck {
    /** trade's --cache 2000 runs: a map of 2,000 entries (server.xml's memorySizeInEntries) over 10,000 symbols. */
    static final int ENTRIES = 2_000, SYMBOLS = 10_000;

    /** One operation on the map: null if its answer was right, else what was wrong with it. */
    interface Attempt {
        String wrong(ThreadLocalRandom random);
    }

    public static void main(String[] args) throws InterruptedException {
        int seconds = Integer.parseInt(args[0]), threads = Integer.parseInt(args[1]);
        System.out.printf("Liberty's DistributedMapImpl: %,d entries, %,d keys, %d threads, %d s per phase%n",
                ENTRIES, SYMBOLS, threads, seconds);

        // 1. the raw map: a key's value is the key itself; a miss stores it, and one in ten of those stores is
        // removed again, as a trade that moves a price removes its quote (removal also returns entries to the pool)
        Map<Object, Object> raw = libertyMap("raw");
        long[] gets = run("get", seconds, threads, random -> {
            String key = "s:" + random.nextInt(SYMBOLS);
            Object value = raw.get(key);
            if (value == null) {
                raw.put(key, key);
                if (random.nextInt(10) == 0) {
                    raw.remove(key);
                }
                return null;
            }
            return key.equals(value) ? null : "get(" + key + ") answered " + value + "'s value";
        });
        System.out.printf("phase 1, raw DistributedMapImpl: %,d gets, %,d answered with another key's value%s%n",
                gets[0], gets[1], gets[1] == 0 ? " (not reproduced in this run)" : " (Liberty's defect)");

        // 2. trade's quote cache over a fresh map of its own: pages of 1-5 distinct symbols, every symbol known to
        // the "database"; one page in ten is followed by a completed trade of its first symbol (its quote dropped)
        QuoteCache quotes = QuoteCache.of(ENTRIES, libertyMap("quotes"));
        Function<List<String>, List<Quote>> database = symbols -> symbols.stream()
                .map(s -> new Quote(s, "company " + s, BigDecimal.TEN, BigDecimal.ONE, BigDecimal.ONE, BigDecimal.TEN, 0, 0))
                .toList();
        long[] pages = run("page", seconds, threads, random -> {
            List<String> asked = new ArrayList<>();
            for (int n = 1 + random.nextInt(5); asked.size() < n; ) {
                String symbol = "s:" + random.nextInt(SYMBOLS);
                if (!asked.contains(symbol)) {
                    asked.add(symbol);
                }
            }
            List<String> shown = quotes.get(asked, database).stream().map(Quote::symbol).toList();
            if (random.nextInt(10) == 0) {
                quotes.committed(new Order(1, 1, TradeRules.BUY, TradeRules.CLOSED, Instant.EPOCH, Instant.EPOCH, 1,
                        BigDecimal.TEN, BigDecimal.ONE, asked.get(0), 1));
            }
            return shown.equals(asked) ? null : "asked " + asked + ", shown " + shown;
        });
        System.out.printf("phase 2, QuoteCache.of(%d, DistributedMapImpl): %,d pages, %,d not exactly the asked symbols%n",
                ENTRIES, pages[0], pages[1]);

        System.out.printf("result: %s; Liberty's map answered %,d of %,d gets with another key's value%s%n",
                pages[1] == 0 ? "OK, no wrong page" : "FAIL, " + pages[1] + " wrong pages", gets[1], gets[0],
                gets[1] == 0 ? " (not reproduced in this run)" : "");
        System.exit(pages[1] == 0 ? 0 : 1); // Liberty's cache may leave threads of its own
    }

    /** A DistributedMapImpl over a Cache of ENTRIES entries, given the daemons and services Liberty gives it. */
    @SuppressWarnings("unchecked")
    static Map<Object, Object> libertyMap(String name) {
        CacheConfig config = new CacheConfig();
        config.setMaxCacheSize(ENTRIES);
        Cache cache = new Cache(name, config);
        // Cache.start() insists on these; they serve sharing and time limits, which nothing here uses, so they are
        // not started (they would run on Liberty's scheduler)
        BatchUpdateDaemon batch = new BatchUpdateDaemon(1000);
        InvalidationAuditDaemon audit = new InvalidationAuditDaemon(10_000);
        batch.setInvalidationAuditDaemon(audit);
        cache.setBatchUpdateDaemon(batch);
        cache.setInvalidationAuditDaemon(audit);
        cache.setTimeLimitDaemon(new TimeLimitDaemon(1000, 100));
        cache.setRemoteServices(new NullRemoteServices());
        cache.start();
        return (Map<Object, Object>) (Map<?, ?>) new DistributedMapImpl(cache);
    }

    /** {@code attempt} from {@code threads} threads for {@code seconds}: {attempts, wrong ones}; the first 3 printed. */
    static long[] run(String what, int seconds, int threads, Attempt attempt) throws InterruptedException {
        AtomicLong attempts = new AtomicLong(), wrong = new AtomicLong();
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread worker = new Thread(() -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                long n = 0;
                while (System.nanoTime() < end) {
                    n++;
                    String wrongAnswer = attempt.wrong(random);
                    if (wrongAnswer != null && wrong.incrementAndGet() <= 3) {
                        System.out.println("  e.g. " + wrongAnswer);
                    }
                }
                attempts.addAndGet(n);
            }, "check-" + what + "-" + t);
            worker.setDaemon(true);
            workers.add(worker);
            worker.start();
        }
        for (Thread worker : workers) {
            // bounded: a thread stuck in the map past its deadline (plus 30 s) is reported, not waited for
            worker.join(Math.max(1, (end - System.nanoTime()) / 1_000_000 + 30_000));
            if (worker.isAlive()) {
                System.out.println("  " + worker.getName() + " still in the map 30 s after its phase ended");
                System.exit(2);
            }
        }
        return new long[] {attempts.get(), wrong.get()};
    }
}
