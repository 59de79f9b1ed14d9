package perflab.monitor.gc;

import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * One line of HotSpot unified logging split into its decorations and message, e.g.
 * {@code [2026-11-22T04:05:06.123+0000][1.234s][info][gc] GC(3) Pause Young ...}. Decorations may be any of
 * time, utctime, uptime, timemillis, uptimemillis, timenanos, uptimenanos, pid, tid, level, tags.
 */
final class UnifiedLogLine {
    static final long NO_TIME = Long.MIN_VALUE;

    long epochMs = NO_TIME;
    double uptimeMs = Double.NaN;
    String level;
    String tags;
    String message;

    // The date-time prefix up to the seconds repeats on consecutive lines: parse it once.
    private String cachedSecondPrefix;
    private long cachedSecondEpochMs;

    /** Parses {@code line} into this object; false when it has no unified-logging decorations. */
    boolean parse(String line) {
        epochMs = NO_TIME;
        uptimeMs = Double.NaN;
        level = null;
        tags = null;
        message = null;
        int pos = 0;
        int n = line.length();
        int tokens = 0;
        while (pos < n && line.charAt(pos) == '[') {
            int end = line.indexOf(']', pos + 1);
            if (end < 0) {
                return false;
            }
            if (!decoration(line.substring(pos + 1, end).trim())) {
                return false;
            }
            tokens++;
            pos = end + 1;
        }
        if (tokens == 0 || tags == null) {
            return false;
        }
        if (pos < n && line.charAt(pos) == ' ') {
            pos++;
        }
        message = line.substring(pos);
        return true;
    }

    private boolean decoration(String d) {
        if (d.isEmpty()) {
            return false;
        }
        char c0 = d.charAt(0);
        if (Character.isDigit(c0)) {
            if (d.length() >= 19 && d.charAt(4) == '-' && d.charAt(10) == 'T') {
                epochMs = parseDateTime(d);
                return epochMs != NO_TIME;
            }
            return number(d);
        }
        switch (d) {
            case "trace", "debug", "info", "warning", "error" -> {
                level = d;
                return true;
            }
            default -> {
            }
        }
        for (int i = 0; i < d.length(); i++) {
            char c = d.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == ',' || c == '_' || c == '-' || c == '.'
                    || c >= 'A' && c <= 'Z')) {
                return false;
            }
        }
        tags = d; // the last word-like decoration is the tag set (HotSpot prints tags last)
        return true;
    }

    private boolean number(String d) {
        try {
            if (d.endsWith("ns")) {
                long v = Long.parseLong(d.substring(0, d.length() - 2));
                if (v > 100_000_000_000_000_000L) {
                    epochMs = v / 1_000_000;
                } else {
                    uptimeMs = v / 1e6;
                }
            } else if (d.endsWith("ms")) {
                long v = Long.parseLong(d.substring(0, d.length() - 2));
                if (v > 100_000_000_000L) {
                    epochMs = v;
                } else {
                    uptimeMs = v;
                }
            } else if (d.endsWith("s")) {
                uptimeMs = Double.parseDouble(d.substring(0, d.length() - 1)) * 1000.0;
            } else {
                Long.parseLong(d); // pid or tid
            }
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** {@code 2026-11-22T04:05:06.123+0000} (time, utctime) to epoch ms. */
    private long parseDateTime(String d) {
        try {
            String secondPrefix = d.substring(0, 19);
            int plus = Math.max(d.lastIndexOf('+'), d.lastIndexOf('-'));
            if (plus < 19) {
                return NO_TIME;
            }
            String offset = d.substring(plus);
            String key = secondPrefix + offset;
            long secondEpochMs;
            if (key.equals(cachedSecondPrefix)) {
                secondEpochMs = cachedSecondEpochMs;
            } else {
                LocalDateTime ldt = LocalDateTime.parse(secondPrefix);
                String off = offset.length() == 5 ? offset.substring(0, 3) + ":" + offset.substring(3) : offset;
                secondEpochMs = ldt.toEpochSecond(ZoneOffset.of(off)) * 1000L;
                cachedSecondPrefix = key;
                cachedSecondEpochMs = secondEpochMs;
            }
            int millis = 0;
            if (d.charAt(19) == '.') {
                String frac = d.substring(20, plus);
                millis = Integer.parseInt((frac + "000").substring(0, 3));
            }
            return secondEpochMs + millis;
        } catch (RuntimeException e) {
            return NO_TIME;
        }
    }
}
