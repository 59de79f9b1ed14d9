package perflab.monitor.gc;

import perflab.core.result.gc.GcAnalysis;
import perflab.core.result.gc.GcCascade;
import perflab.core.result.gc.GcEvent;

import com.fasterxml.jackson.core.JsonProcessingException;
import perflab.core.result.Json;

import java.io.UncheckedIOException;
import java.util.Locale;

/** {@link GcAnalysis} as the table {@code perflab gc <log>} prints, or as JSON ({@code --json}). */
public final class GcTable {
    /** Cascade events listed per second in the table; JSON lists them all. */
    static final int EVENTS_SHOWN = 5;

    private GcTable() {
    }

    public static String json(GcAnalysis a) {
        try {
            return Json.MAPPER.writeValueAsString(a);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static String render(GcAnalysis a) {
        StringBuilder sb = new StringBuilder();
        row(sb, "collector", a.collector());
        row(sb, "window", f("%.1f s%s", a.windowSeconds(), a.clock().equals("uptime") ? " (uptime clock)" : ""));
        row(sb, "collections", f("%d  (young %d, mixed %d, full %d, concurrent %d)", a.count(), a.youngCount(),
                a.mixedCount(), a.fullCount(), a.concurrentCount()));
        row(sb, "pauses", f("%d  total %.1f ms  (young %.1f, mixed %.1f, full %.1f, other %.1f)", a.pauseCount(),
                a.totalPauseMs(), a.youngPauseMs(), a.mixedPauseMs(), a.fullPauseMs(),
                a.totalPauseMs() - a.youngPauseMs() - a.mixedPauseMs() - a.fullPauseMs()));
        row(sb, "GC overhead", f("%.2f %% of wall time paused", a.overheadPercent()));
        row(sb, "pause max/p50/p99", f("%.3f / %.3f / %.3f ms", a.maxPauseMs(), a.p50PauseMs(), a.p99PauseMs()));
        row(sb, "GC CPU", a.gcCpuSeconds() == null ? "not in log (concurrent collector: pauses understate its cost)"
                : f("%.2f s user+sys", a.gcCpuSeconds()));
        row(sb, "live set", a.liveSetMb() == null ? "-" : f("%.1f MB", a.liveSetMb()));
        row(sb, "allocation rate", a.allocationRateMbPerSec() == null ? "-"
                : f("%.1f MB/s", a.allocationRateMbPerSec()));
        if (a.allocatedBytesPerRequest() != null) {
            row(sb, "allocated/request", f("%.0f bytes", a.allocatedBytesPerRequest()));
        }
        row(sb, "cascades", f("%d second(s) leaving the application < %.0f %%", a.cascadeSeconds(),
                a.cascadeThreshold() * 100));
        for (GcCascade c : a.cascades()) {
            sb.append(f("  %s  paused %.1f ms, application %.1f %%, %d pause(s)%n",
                    c.time() != null ? c.time() : (c.epochMs() / 1000) + " s uptime", c.pauseMs(),
                    c.applicationShare() * 100, c.events().size()));
            int shown = 0;
            for (GcEvent e : c.events()) {
                if (shown++ == EVENTS_SHOWN) {
                    sb.append(f("      ... %d more%n", c.events().size() - EVENTS_SHOWN));
                    break;
                }
                sb.append(f("      GC(%d) %s %.3f ms%s%n", e.gcId(), e.name(), e.pauseMs(),
                        e.heapAfterMb() == null ? "" : f("  %.0fM->%.0fM", e.heapBeforeMb(), e.heapAfterMb())));
            }
        }
        return sb.toString();
    }

    private static void row(StringBuilder sb, String label, String value) {
        sb.append(String.format(Locale.ROOT, "%-19s %s%n", label, value));
    }

    private static String f(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
