package perflab.trade.lean.data;

import perflab.trade.lean.Order;
import perflab.trade.lean.Quote;

import java.util.List;
import java.util.function.Function;

/** No quote cache (--cache 0): every quote is read from the database. */
enum NoQuoteCache implements QuoteCache {
    INSTANCE;

    @Override
    public List<Quote> get(List<String> symbols, Function<List<String>, List<Quote>> load) {
        return load.apply(symbols);
    }

    @Override
    public Order committed(Order order) {
        return order;
    }

    @Override
    public void clear() {
    }
}
