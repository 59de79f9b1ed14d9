package perflab.core.result.gc;

/**
 * One stop-the-world GC pause from the log.
 *
 * @param epochMs       wall-clock time the pause ended (the log line's time decoration); uptime ms for logs
 *                      without a wall-clock decoration
 * @param uptimeSeconds JVM uptime at the end of the pause, when the log has it
 * @param gcId          HotSpot's GC(n) id of the collection the pause belongs to
 * @param name          the pause as HotSpot names it, e.g. "Pause Young (Normal) (G1 Evacuation Pause)"
 * @param kind          "young", "mixed" (G1's young pause that also collects old regions), "full" (the whole
 *                      heap; see {@link GcAnalysis}) or "other" (remark, cleanup, the short pauses of concurrent
 *                      collectors)
 * @param pauseMs       duration of the pause
 * @param heapBeforeMb  heap in use before, when the line carries it
 * @param heapAfterMb   heap in use after, when the line carries it
 */
public record GcEvent(long epochMs, Double uptimeSeconds, int gcId, String name, String kind, double pauseMs,
                      Double heapBeforeMb, Double heapAfterMb) {
}
