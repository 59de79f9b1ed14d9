package perflab.report;

import java.util.Locale;

/** How reports write numbers: enough digits to read a difference, never more. */
final class ReportNumbers {
    private ReportNumbers() {
    }

    static String num(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return "—";
        }
        double a = Math.abs(v);
        if (a >= 1000) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        if (a >= 100) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        if (a >= 1 || a == 0) {
            return String.format(Locale.ROOT, "%.2f", v);
        }
        return String.format(Locale.ROOT, "%.3f", v);
    }

    static String num(Double v) {
        return v == null ? "—" : num(v.doubleValue());
    }

    static String num(double v, String unit) {
        return Double.isFinite(v) ? num(v) + " " + unit : "—";
    }

    static String num(Double v, String unit) {
        return v == null ? "—" : num(v.doubleValue(), unit);
    }

    static String percent(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%.2f%%", v) : "—";
    }

    static String signedPercent(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%+.1f%%", v) : "—";
    }
}
