package perflab.core.result.gc;

import java.util.List;

/**
 * A second in which GC pauses left the application less than the cascade threshold of the second.
 *
 * @param epochMs          start of the second (epoch ms; uptime ms for uptime-only logs)
 * @param time             the same second as ISO-8601 UTC, null for uptime-only logs
 * @param pauseMs          pause time inside the second
 * @param applicationShare share of the second left to the application, 0..1
 * @param events           the pauses that overlap the second
 */
public record GcCascade(long epochMs, String time, double pauseMs, double applicationShare, List<GcEvent> events) {
}
