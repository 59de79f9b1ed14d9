package perflab.trade.lean;

import java.util.List;

/**
 * What an audit of the books found: how many accounts it checked, how many violations, and the first few
 * described in a line each (a report of thousands of lines helps nobody find the first cause).
 */
public record AuditReport(int accountsChecked, long violationCount, List<String> firstViolations) {
    /** Violations described at most. */
    public static final int SHOWN = 10;

    public AuditReport {
        firstViolations = List.copyOf(firstViolations);
    }

    public boolean clean() {
        return violationCount == 0;
    }
}
