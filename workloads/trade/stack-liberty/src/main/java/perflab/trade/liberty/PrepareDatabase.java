package perflab.trade.liberty;

import perflab.core.sut.SutArgs;
import perflab.core.sut.SutBootstrap;
import perflab.trade.lean.data.PopulatedDatabase;
import perflab.trade.lean.data.TradeDatabase;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.Set;

/**
 * What the liberty stack does before Open Liberty starts (servers/liberty/trade-start.sh): the database restored to
 * its populated state ({@link PopulatedDatabase}, the same as the lean stack's), and the data source's connection
 * properties written as a Liberty configuration file that server.xml includes, with the quote cache's DistributedMap
 * (Liberty takes its size only as a number of 100 or more: checked here, in one line, before anything starts). Then
 * the container opens its own pool on it. Prints the lean stack's "trade database: ..." line and its startup facts (PERFLAB-FACT), which perflab
 * records in run.json, and progress lines while a first population runs.
 *
 * <p>Flags: {@code --db h2|postgresql}, {@code --db-url URL} (postgresql), {@code --users N}, {@code --quotes N},
 * {@code --statement-cache N} (H2's query cache, as the lean stack opens H2), {@code --cache N} and {@code
 * --quote-cache distributed-map|caffeine} (the quote cache's size and place), {@code --work-dir DIR} (the run's copy
 * of an H2 database), {@code --population-cache DIR}, {@code --jvm-options FILE} (Liberty's jvm.options: its -Xmx
 * sizes H2's page cache as the lean stack's heap does), {@code --write FILE} (the configuration written).
 */
public final class PrepareDatabase {
    static final Set<String> NAMES = Set.of("db", "db-url", "users", "quotes", "statement-cache", "cache",
            "quote-cache", "work-dir", "population-cache", "jvm-options", "write");
    /** The JNDI name of the quote cache's DistributedMap, which TradeApplication looks up. */
    static final String QUOTE_MAP = "services/cache/tradeQuotes";
    /** The fewest entries Liberty's distributedMap takes (its configuration's minimum). */
    static final int LEAST_MAP_ENTRIES = 100;

    private PrepareDatabase() {
    }

    public static void main(String[] args) {
        try {
            run(SutArgs.parse(args, NAMES));
        } catch (IllegalArgumentException | IllegalStateException | IOException e) {
            System.err.println("trade-liberty prepare: " + e.getMessage());
            System.exit(2);
        } catch (RuntimeException e) { // a database that refuses (DatabaseFailure): one line, not a trace
            System.err.println("trade-liberty prepare: " + e.getMessage());
            System.exit(1);
        }
    }

    static void run(SutArgs flags) throws IOException {
        String db = need(flags, "db");
        int users = number(flags, "users", 0);
        int quotes = number(flags, "quotes", 2);
        int statementCache = number(flags, "statement-cache", 0);
        Path write = Path.of(need(flags, "write"));
        Path cache = flags.has("population-cache") ? Path.of(need(flags, "population-cache"))
                : PopulatedDatabase.defaultCache();
        // checked before a population that may take minutes
        String quoteMap = quoteMap(need(flags, "quote-cache"), number(flags, "cache", 0));
        String properties;
        PopulatedDatabase.Restore restore;
        switch (db) {
            case "h2" -> {
                restore = PopulatedDatabase.h2(cache, Path.of(need(flags, "work-dir")), users, quotes);
                long heap = flags.has("jvm-options") ? JvmOptions.maxHeap(Path.of(need(flags, "jvm-options")))
                        : JvmOptions.defaultMaxHeap();
                properties = "<properties.h2 URL=\"" + attribute(TradeDatabase.h2Url(restore.jdbcUrl(), statementCache,
                        heap)) + "\"/>";
            }
            case "postgresql" -> {
                restore = PopulatedDatabase.postgresql(need(flags, "db-url"), users, quotes);
                // the container's statement cache is the knob (statementCacheSize), as WebSphere's was; the driver
                // keeps its own defaults
                properties = "<properties.postgresql URL=\"" + attribute(restore.jdbcUrl()) + "\"/>";
            }
            default -> throw new IllegalArgumentException("--db must be h2 or postgresql, got '" + db + "'");
        }
        System.out.println("trade database: " + restore.describe());
        restore.facts().forEach((name, value) -> System.out.println(SutBootstrap.FACT + " " + name + " " + value));
        writeAtomically(write, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<!-- written by perflab's PrepareDatabase for this run: the database trade's data source opens -->\n"
                + "<server>\n  <dataSource id=\"trade\">\n    <jdbcDriver libraryRef=\"" + db + "\"/>\n    "
                + properties + "\n  </dataSource>\n" + quoteMap + "</server>\n");
    }

    /**
     * The DistributedMap of the quote cache, sized by {@code --cache}, when the application keeps its quotes there;
     * nothing for {@code caffeine} or a cache of 0.
     */
    static String quoteMap(String kind, int entries) {
        switch (kind) {
            case "caffeine" -> {
                return "";
            }
            case "distributed-map" -> {
                if (entries == 0) {
                    return "";
                }
                if (entries < LEAST_MAP_ENTRIES) {
                    throw new IllegalArgumentException("--cache " + entries + ": Liberty's distributedMap holds "
                            + LEAST_MAP_ENTRIES + " entries at least; use --cache 0 or " + LEAST_MAP_ENTRIES
                            + " or more, or --set quote-cache=caffeine");
                }
                return "  <distributedMap id=\"tradeQuotes\" jndiName=\"" + QUOTE_MAP + "\" memorySizeInEntries=\""
                        + entries + "\"/>\n";
            }
            default -> throw new IllegalArgumentException("--quote-cache must be distributed-map or caffeine, got '"
                    + kind + "'");
        }
    }

    private static String need(SutArgs flags, String name) {
        String value = flags.get(name, null);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("--" + name + " is missing");
        }
        return value;
    }

    private static int number(SutArgs flags, String name, int min) {
        need(flags, name);
        int n = flags.getInt(name, min);
        if (n < min) {
            throw new IllegalArgumentException("--" + name + " must be at least " + min + ", got " + n);
        }
        return n;
    }

    /** Text as an XML attribute value in double quotes. */
    static String attribute(String text) {
        StringBuilder s = new StringBuilder(text.length() + 16);
        for (char c : text.toCharArray()) {
            switch (c) {
                case '&' -> s.append("&amp;");
                case '<' -> s.append("&lt;");
                case '>' -> s.append("&gt;");
                case '"' -> s.append("&quot;");
                default -> s.append(c);
            }
        }
        return s.toString();
    }

    private static void writeAtomically(Path file, String text) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, ".prepare-", ".tmp");
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** The largest heap Liberty's JVM will have, read from its jvm.options as the JVM reads -Xmx. */
    static final class JvmOptions {
        private JvmOptions() {
        }

        static long maxHeap(Path jvmOptions) throws IOException {
            long heap = defaultMaxHeap();
            if (!Files.exists(jvmOptions)) {
                return heap;
            }
            for (String line : Files.readAllLines(jvmOptions, StandardCharsets.UTF_8)) {
                String flag = line.trim();
                if (flag.startsWith("-Xmx")) {
                    heap = bytes(flag.substring(4)); // the last one wins, as with the JVM
                }
            }
            return heap;
        }

        /** The JVM's own choice without -Xmx: a quarter of the machine's memory. */
        static long defaultMaxHeap() {
            if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
                return os.getTotalMemorySize() / 4;
            }
            return Runtime.getRuntime().maxMemory();
        }

        static long bytes(String size) {
            String s = size.trim().toLowerCase(Locale.ROOT);
            long unit = switch (s.isEmpty() ? ' ' : s.charAt(s.length() - 1)) {
                case 'k' -> 1L << 10;
                case 'm' -> 1L << 20;
                case 'g' -> 1L << 30;
                case 't' -> 1L << 40;
                default -> 1;
            };
            String digits = unit == 1 ? s : s.substring(0, s.length() - 1);
            try {
                return Long.parseLong(digits) * unit;
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("-Xmx" + size + " in jvm.options is not a size");
            }
        }
    }
}
