package perflab.trade.lean;

import java.time.Duration;

/** What a population created, and how long it took. */
public record PopulationReport(int users, int quotes, int holdings, Duration elapsed) {
}
