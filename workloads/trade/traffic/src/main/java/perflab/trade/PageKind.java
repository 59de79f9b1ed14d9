package perflab.trade;

/**
 * The brokerage's request kinds, one per page a user asks for (perflab counts each kind apart). Also the choices of
 * a {@link TradeMix}: a mix picks what the user does next, and the session turns that into one request or a short
 * sequence (a look at the portfolio before a sell).
 */
enum PageKind {
    LOGIN("login"),
    LOGOUT("logout"),
    REGISTER("register"),
    HOME("home"),
    ACCOUNT("account"),
    UPDATE("update"),
    PORTFOLIO("portfolio"),
    QUOTE("quote"),
    BUY("buy"),
    SELL("sell"),
    REST_QUOTES("rest-quotes");

    /** The kind's name in statistics and error messages. */
    final String kind;

    PageKind(String kind) {
        this.kind = kind;
    }

    @Override
    public String toString() {
        return kind;
    }
}
