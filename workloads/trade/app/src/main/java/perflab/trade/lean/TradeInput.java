package perflab.trade.lean;

import perflab.trade.contract.TradeRules;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

import static perflab.trade.lean.TradeRefusal.Reason.BAD_INPUT;

/**
 * What the brokerage accepts, checked in one place: the web layer parses form text with the {@code parse}
 * methods, and the service checks typed values with the {@code check} methods, so that bad input is always a
 * {@link TradeRefusal} with a one-line reason and never reaches the database.
 */
public final class TradeInput {
    private TradeInput() {
    }

    /** The longest text a column holds (DayTrader's VARCHAR(250)). */
    public static final int MAX_TEXT = 250;
    /** The largest opening balance a registration may ask for; the money columns are DECIMAL(14,2). */
    public static final BigDecimal MAX_OPENING_BALANCE = new BigDecimal("1000000000.00");

    // plain decimals only: Double.parseDouble would also take NaN, Infinity, 1e9 and hex
    private static final Pattern DECIMAL = Pattern.compile("[0-9]{1,12}(\\.[0-9]{1,9})?");
    private static final Pattern INTEGER = Pattern.compile("[0-9]{1,9}");
    // DayTrader's ids (uid:7, ru:host1700000000000:3) fit; quotes, spaces and markup do not
    private static final Pattern USER_ID = Pattern.compile("[A-Za-z0-9:._@-]{1," + MAX_TEXT + "}");

    /** A quantity field: a positive plain decimal up to {@link TradeRules#MAX_QUANTITY}. */
    public static double parseQuantity(String text) {
        String t = required("quantity", text);
        if (!DECIMAL.matcher(t).matches()) {
            throw refused("quantity must be a number of shares, such as 100");
        }
        return checkQuantity(Double.parseDouble(t));
    }

    /** A holding id field: a non-negative whole number. */
    public static int parseHoldingId(String text) {
        String t = required("holding id", text);
        if (!INTEGER.matcher(t).matches()) {
            throw refused("holding id must be a whole number");
        }
        return Integer.parseInt(t);
    }

    /** A symbols field: comma-separated, each trimmed, empties and repeats dropped, 1 to {@value TradeRules#MAX_SYMBOLS}. */
    public static List<String> parseSymbols(String text) {
        Set<String> symbols = new LinkedHashSet<>();
        for (String s : required("symbols", text).split(",")) {
            if (!s.isBlank()) {
                symbols.add(s.trim());
            }
        }
        return checkSymbols(new ArrayList<>(symbols));
    }

    /** An opening balance field: a plain decimal with at most two decimals, up to {@link #MAX_OPENING_BALANCE}. */
    public static BigDecimal parseMoney(String text) {
        String t = required("opening balance", text);
        if (!DECIMAL.matcher(t).matches() || new BigDecimal(t).scale() > 2) {
            throw refused("opening balance must be an amount such as 10000.00");
        }
        return checkOpeningBalance(new BigDecimal(t));
    }

    public static double checkQuantity(double quantity) {
        if (!(quantity > 0) || quantity > TradeRules.MAX_QUANTITY) {
            throw refused("quantity must be more than 0 and at most " + (long) TradeRules.MAX_QUANTITY);
        }
        return quantity;
    }

    public static List<String> checkSymbols(List<String> symbols) {
        if (symbols == null || symbols.isEmpty() || symbols.size() > TradeRules.MAX_SYMBOLS) {
            throw refused("name 1 to " + TradeRules.MAX_SYMBOLS + " symbols, such as s:1,s:2");
        }
        for (String s : symbols) {
            checkText("symbol", s);
        }
        return symbols;
    }

    public static BigDecimal checkOpeningBalance(BigDecimal balance) {
        if (balance == null || balance.signum() < 0 || balance.compareTo(MAX_OPENING_BALANCE) > 0
                || balance.scale() > 2) {
            throw refused("opening balance must be between 0 and " + MAX_OPENING_BALANCE.toPlainString()
                    + " with at most two decimals");
        }
        return balance;
    }

    /** Whether {@code userId} could be a user's id at all: what a login asks the database about. */
    public static boolean isUserId(String userId) {
        return userId != null && USER_ID.matcher(userId).matches();
    }

    public static String checkUserId(String userId) {
        if (!isUserId(userId)) {
            throw refused("user id must be 1 to " + MAX_TEXT + " letters, digits or :._@-");
        }
        return userId;
    }

    /** A profile as registration and update send it: a password and four text fields. */
    public static void checkProfile(String password, String fullName, String address, String email, String creditCard) {
        checkPassword(password);
        checkText("full name", fullName);
        checkText("address", address);
        checkText("email", email);
        checkText("credit card", creditCard);
    }

    public static String checkPassword(String password) {
        if (password == null || password.isEmpty() || password.length() > MAX_TEXT) {
            throw refused("password must be 1 to " + MAX_TEXT + " characters");
        }
        return password;
    }

    /**
     * A free-text profile field: present (possibly empty), at most {@link #MAX_TEXT} characters, and no NUL, which
     * PostgreSQL's text cannot hold (H2's can: the same input must get the same answer on both).
     */
    public static String checkText(String field, String value) {
        if (value == null || value.length() > MAX_TEXT) {
            throw refused(field + " must be at most " + MAX_TEXT + " characters");
        }
        if (value.indexOf('\0') >= 0) {
            throw refused(field + " must not contain a NUL character");
        }
        return value;
    }

    private static String required(String field, String text) {
        if (text == null || text.isBlank()) {
            throw refused(field + " is missing");
        }
        return text.trim();
    }

    private static TradeRefusal refused(String message) {
        return new TradeRefusal(BAD_INPUT, message);
    }
}
