package perflab.trade.lean.web;

import perflab.trade.lean.Order;

import java.util.List;

/**
 * What every page shows around its content: its title and, for a logged-in user, the user id, the session's CSRF
 * token (for the log-out form and the page's own forms) and the orders completed since the user's last page
 * (DayTrader's closed-order alerts, each shown once).
 *
 * @param userId null on the anonymous pages (login, register)
 */
public record Frame(String title, String userId, String csrf, List<Order> alerts) {
    public Frame {
        alerts = List.copyOf(alerts);
    }

    public static Frame anonymous(String title) {
        return new Frame(title, null, null, List.of());
    }

    public boolean loggedIn() {
        return userId != null;
    }
}
