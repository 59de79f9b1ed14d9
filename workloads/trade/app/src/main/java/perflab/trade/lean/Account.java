package perflab.trade.lean;

import java.math.BigDecimal;
import java.time.Instant;

/** A user's brokerage account: DayTrader's AccountDataBean. */
public record Account(int accountId, String userId, BigDecimal balance, BigDecimal openBalance, int loginCount,
                      int logoutCount, Instant creationDate, Instant lastLogin) {
}
