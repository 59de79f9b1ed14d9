package perflab.trade.liberty;

import perflab.core.sut.SutBootstrap;
import perflab.trade.lean.data.PopulatedDatabase;
import perflab.trade.lean.data.TradeDatabase;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the liberty stack does before Open Liberty starts (servers/liberty/trade-start.sh): the database restored to
 * its populated state ({@link PopulatedDatabase}, the same as the lean stack's), and the data source's connection
 * properties written as a Liberty configuration file that server.xml includes. Then the container opens its own pool
 * on it. Prints the lean stack's "trade database: ..." line and its startup facts (PERFLAB-FACT), which perflab
 * records in run.json, and progress lines while a first population runs.
 *
 * <p>Flags: {@code --db h2|postgresql}, {@code --db-url URL} (postgresql), {@code --users N}, {@code --quotes N},
 * {@code --statement-cache N} (H2's query cache, as the lean stack opens H2), {@code --work-dir DIR} (the run's copy
 * of an H2 database), {@code --population-cache DIR}, {@code --jvm-options FILE} (Liberty's jvm.options: its -Xmx
 * sizes H2's page cache as the lean stack's heap does), {@code --write FILE} (the configuration written).
 */
public final class PrepareDatabase {
    private static final List<String> NAMES = List.of("db", "db-url", "users", "quotes", "statement-cache", "work-dir",
            "population-cache", "jvm-options", "write");

    private PrepareDatabase() {
    }

    public static void main(String[] args) {
        try {
            run(flags(args));
        } catch (IllegalArgumentException | IllegalStateException | IOException e) {
            System.err.println("trade-liberty prepare: " + e.getMessage());
            System.exit(2);
        } catch (RuntimeException e) { // a database that refuses (DatabaseFailure): one line, not a trace
            System.err.println("trade-liberty prepare: " + e.getMessage());
            System.exit(1);
        }
    }

    static void run(Map<String, String> flags) throws IOException {
        String db = need(flags, "db");
        int users = number(flags, "users", 0);
        int quotes = number(flags, "quotes", 2);
        int statementCache = number(flags, "statement-cache", 0);
        Path write = Path.of(need(flags, "write"));
        Path cache = flags.containsKey("population-cache") ? Path.of(flags.get("population-cache"))
                : PopulatedDatabase.defaultCache();
        String properties;
        PopulatedDatabase.Restore restore;
        switch (db) {
            case "h2" -> {
                restore = PopulatedDatabase.h2(cache, Path.of(need(flags, "work-dir")), users, quotes);
                long heap = flags.containsKey("jvm-options") ? JvmOptions.maxHeap(Path.of(flags.get("jvm-options")))
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
                + properties + "\n  </dataSource>\n</server>\n");
    }

    static Map<String, String> flags(String[] args) {
        Map<String, String> flags = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String name = args[i].startsWith("--") ? args[i].substring(2) : "";
            if (!NAMES.contains(name)) {
                throw new IllegalArgumentException("unknown flag '" + args[i] + "'; flags: --" + String.join(", --", NAMES));
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(args[i] + " needs a value");
            }
            flags.put(name, args[++i]);
        }
        return flags;
    }

    private static String need(Map<String, String> flags, String name) {
        String value = flags.get(name);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("--" + name + " is missing");
        }
        return value;
    }

    private static int number(Map<String, String> flags, String name, int min) {
        String text = need(flags, name);
        try {
            int n = Integer.parseInt(text.trim());
            if (n >= min) {
                return n;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new IllegalArgumentException("--" + name + " must be a whole number of at least " + min + ", got '" + text + "'");
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
