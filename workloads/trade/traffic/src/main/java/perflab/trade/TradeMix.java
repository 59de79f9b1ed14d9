package perflab.trade;

import perflab.core.traffic.WeightedMix;

import java.util.List;

/**
 * What a logged-in user does next, in DayTrader's proportions, and how its two drivers shape a step.
 *
 * @param name                  the --mix value
 * @param pages                 the weighted choice of the next thing to do
 * @param maxSymbols            a quote page asks for 1 to this many symbols
 * @param looksFirst            a buy, sell or update is preceded by the page a person looks at first (the quote of
 *                              the symbol, the portfolio, the account), each a request of its own
 * @param buysWhenNothingToSell a sell that finds no holding on a fresh portfolio page buys instead; otherwise the
 *                              user just goes on
 */
record TradeMix(String name, WeightedMix<PageKind> pages, int maxSymbols, boolean looksFirst,
                boolean buysWhenNothingToSell) {

    /**
     * DayTrader's scenario row (its TradeScenarioServlet, in percent of requests): each choice is one request, a sell
     * looks at the portfolio only when it knows no holding to sell, and with nothing to sell it buys, as DayTrader's
     * scenario does.
     */
    static final TradeMix STANDARD = new TradeMix("standard", WeightedMix.<PageKind>builder()
            .add(PageKind.HOME, 20)
            .add(PageKind.QUOTE, 40)
            .add(PageKind.LOGOUT, 4)
            .add(PageKind.REGISTER, 2)
            .add(PageKind.ACCOUNT, 10)
            .add(PageKind.PORTFOLIO, 12)
            .add(PageKind.BUY, 4)
            .add(PageKind.SELL, 4)
            .add(PageKind.UPDATE, 4)
            .build(), 10, false, true);

    /** The share of DayTrader 8's JMeter plan that calls the REST quote service (one symbol, no session). */
    static final double JMETER_REST_PERCENT = 20;

    /**
     * DayTrader 8's JMeter plan: 20 % REST quotes, the rest its JSP pages in the plan's sub-mix (quotes 36, home 16,
     * portfolio 15, account 10, buy 4, sell 4, update 2, register 1, logout 4). The plan's 8 % market summary goes
     * over a websocket, which perflab's driver does not speak; it is left out as the plan's own no-websocket variant
     * does. Its JSF branch has the same sub-mix, so it adds no page of its own. Quotes ask for one symbol; a buy
     * quotes its symbol first, a sell looks at the portfolio first (and with nothing there does not sell), an update
     * looks at the account first.
     */
    static final TradeMix JMETER = jmeter();

    static final List<TradeMix> ALL = List.of(STANDARD, JMETER);

    private static TradeMix jmeter() {
        double pages = 100 - JMETER_REST_PERCENT;
        double subMixTotal = 36 + 16 + 15 + 10 + 4 + 4 + 2 + 1 + 4;
        double scale = pages / subMixTotal;
        return new TradeMix("jmeter", WeightedMix.<PageKind>builder()
                .add(PageKind.REST_QUOTES, JMETER_REST_PERCENT)
                .add(PageKind.QUOTE, 36 * scale)
                .add(PageKind.HOME, 16 * scale)
                .add(PageKind.PORTFOLIO, 15 * scale)
                .add(PageKind.ACCOUNT, 10 * scale)
                .add(PageKind.BUY, 4 * scale)
                .add(PageKind.SELL, 4 * scale)
                .add(PageKind.UPDATE, 2 * scale)
                .add(PageKind.REGISTER, 1 * scale)
                .add(PageKind.LOGOUT, 4 * scale)
                .build(), 1, true, false);
    }

    static List<String> names() {
        return ALL.stream().map(TradeMix::name).toList();
    }

    /** The mix of a --mix value (already checked by the setting). */
    static TradeMix named(String name) {
        return ALL.stream().filter(m -> m.name.equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("--mix: '" + name + "' is not "
                        + String.join(" or ", names())));
    }
}
