package perflab.experiment.run;

import java.util.List;
import java.util.Map;

/** perflab's collector names and the HotSpot flags that select them. */
public final class GcFlags {
    private static final Map<String, String> FLAGS = Map.of(
            "serial", "-XX:+UseSerialGC",
            "parallel", "-XX:+UseParallelGC",
            "g1", "-XX:+UseG1GC",
            "zgc", "-XX:+UseZGC",
            "shenandoah", "-XX:+UseShenandoahGC");
    public static final List<String> NAMES = List.of("serial", "parallel", "g1", "zgc", "shenandoah");

    private GcFlags() {
    }

    public static String flagFor(String gc) {
        String flag = FLAGS.get(gc);
        if (flag == null) {
            throw new IllegalArgumentException("--gc: unknown collector '" + gc + "'; use one of " + String.join(", ", NAMES));
        }
        return flag;
    }

    /**
     * HotSpot unified GC logging into {@code file}: every GC and safepoint event with wall-clock and uptime
     * decorations, one file without rotation so that long runs keep their start.
     */
    public static String gcLogFlag(java.nio.file.Path file) {
        return "-Xlog:gc*,safepoint:file=" + file.toAbsolutePath() + ":time,uptime,level,tags:filecount=0";
    }
}
