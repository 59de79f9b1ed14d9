package perflab.monitor.gc;

/** A file that is not a HotSpot unified GC log, or one in a format the analyzer does not know. */
public final class UnknownGcLogFormatException extends RuntimeException {
    public static final String KNOWN_FORMATS = "known formats: JDK 9+ unified logging (-Xlog:gc*) with time or uptime "
            + "decorations (Serial, Parallel, G1, ZGC, Shenandoah)";

    public UnknownGcLogFormatException(String source, String reason) {
        super(source + " is not a HotSpot unified GC log (-Xlog:gc*): " + reason + "; " + KNOWN_FORMATS);
    }
}
