package perflab.core.sut;

import com.sun.management.HotSpotDiagnosticMXBean;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.util.List;
import java.util.Locale;

/**
 * The JVM configuration actually in force, as the JVM itself reports it. Recorded because flags and
 * reality differ: on one CPU the JVM silently picks Serial, and -XX:+UseLargePages without reserved pages
 * only warns.
 *
 * @param collector       perflab's name for the collector in use: serial, parallel, g1, zgc,
 *                        zgc-generational, shenandoah, epsilon or unknown
 * @param collectorBeans  the GC MXBean names the decision was made from
 */
public record EffectiveJvm(long pid, String javaVersion, String vmName, String vmVendor, String collector,
                           List<String> collectorBeans, long heapInitialMb, long heapMaxMb,
                           int availableProcessors, boolean useLargePages, boolean useTransparentHugePages,
                           boolean useCompressedOops, List<String> inputArguments) {

    /** Describes the running JVM. */
    public static EffectiveJvm describe() {
        List<String> beans = ManagementFactory.getGarbageCollectorMXBeans().stream()
                .map(GarbageCollectorMXBean::getName).toList();
        MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        return new EffectiveJvm(ProcessHandle.current().pid(),
                System.getProperty("java.version"), System.getProperty("java.vm.name"),
                System.getProperty("java.vm.vendor"), collectorOf(beans, flag("UseZGC"), flag("ZGenerational")),
                beans, sizeFlag("InitialHeapSize", heap.getInit()) / (1024 * 1024),
                sizeFlag("MaxHeapSize", heap.getMax()) / (1024 * 1024),
                Runtime.getRuntime().availableProcessors(), flag("UseLargePages"),
                flag("UseTransparentHugePages"), flag("UseCompressedOops"),
                ManagementFactory.getRuntimeMXBean().getInputArguments());
    }

    /** Names the collector from the GC beans the JVM registered (names are stable across JDK 17..25). */
    static String collectorOf(List<String> beans, boolean zgc, boolean zgcGenerational) {
        String all = String.join("|", beans).toLowerCase(Locale.ROOT);
        if (all.contains("g1 ")) {
            return "g1";
        }
        if (all.contains("ps scavenge") || all.contains("ps marksweep")) {
            return "parallel";
        }
        if (all.contains("copy") || all.contains("marksweepcompact")) {
            return "serial";
        }
        if (all.contains("zgc minor") || all.contains("zgc major")) {
            return "zgc-generational";
        }
        if (all.contains("zgc")) {
            return zgcGenerational ? "zgc-generational" : "zgc";
        }
        if (all.contains("shenandoah")) {
            return "shenandoah";
        }
        if (beans.isEmpty()) {
            return "epsilon";
        }
        return "unknown";
    }

    /**
     * A size flag as the JVM set it. The heap figures of the memory bean exclude a survivor space under the
     * Serial and Parallel collectors, so they do not match -Xmx.
     */
    private static long sizeFlag(String name, long fallback) {
        String value = vmOption(name);
        try {
            return value == null ? fallback : Long.parseLong(value);
        } catch (NumberFormatException e) {
            return fallback;
        }
    }

    private static boolean flag(String name) {
        return Boolean.parseBoolean(vmOption(name));
    }

    /** A HotSpot option's value, or null when this JVM does not have it. */
    private static String vmOption(String name) {
        try {
            return ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class).getVMOption(name).getValue();
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** Hand-written JSON so that a SUT needs no JSON library on its classpath. */
    public String toJson() {
        StringBuilder json = new StringBuilder("{\n");
        field(json, "pid", pid);
        field(json, "javaVersion", javaVersion);
        field(json, "vmName", vmName);
        field(json, "vmVendor", vmVendor);
        field(json, "collector", collector);
        field(json, "collectorBeans", collectorBeans);
        field(json, "heapInitialMb", heapInitialMb);
        field(json, "heapMaxMb", heapMaxMb);
        field(json, "availableProcessors", availableProcessors);
        field(json, "useLargePages", useLargePages);
        field(json, "useTransparentHugePages", useTransparentHugePages);
        field(json, "useCompressedOops", useCompressedOops);
        json.append("  \"inputArguments\": ").append(array(inputArguments)).append("\n}\n");
        return json.toString();
    }

    private static void field(StringBuilder json, String name, Object value) {
        json.append("  \"").append(name).append("\": ");
        if (value instanceof List<?> list) {
            json.append(array(list));
        } else if (value instanceof String s) {
            json.append(quote(s));
        } else {
            json.append(value);
        }
        json.append(",\n");
    }

    private static String array(List<?> values) {
        StringBuilder out = new StringBuilder("[");
        for (int i = 0; i < values.size(); i++) {
            out.append(i == 0 ? "" : ", ").append(quote(String.valueOf(values.get(i))));
        }
        return out.append(']').toString();
    }

    static String quote(String s) {
        if (s == null) {
            return "null";
        }
        StringBuilder out = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
