package perflab.history.changes;

/**
 * A lasting change in a series: from {@code index} on, the figure's level is another.
 *
 * @param index         the first point of the new level (0-based in the series)
 * @param before        the mean of the segment before it
 * @param after         the mean of the segment from it on (to the next change point)
 * @param changePercent (after - before) / before, in %
 * @param low           the 95 % interval of the change in %, low end (Welch, between the two segments)
 * @param high          its high end
 * @param p             Welch's two-sided p between the two segments
 */
public record ChangePoint(int index, double before, double after, double changePercent, double low, double high,
                          double p) {
}
