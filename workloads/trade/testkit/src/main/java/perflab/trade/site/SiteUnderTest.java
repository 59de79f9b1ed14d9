package perflab.trade.site;

import perflab.trade.lean.Account;
import perflab.trade.lean.Holding;
import perflab.trade.lean.Profile;
import perflab.trade.lean.Quote;
import perflab.trade.lean.TradeService;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * A trade stack's site under test: where its pages are, and its books read through a {@link TradeService} on the same
 * database (the lean stack's own service in process; for a server in a process of its own, a service of the test's
 * over the server's PostgreSQL database). Populated with {@link #users()} users uid:0 ... and {@link #quotes()}
 * symbols s:0 ... with trade's password for all.
 */
public interface SiteUnderTest extends AutoCloseable {
    URI base();

    TradeService trade();

    int users();

    int quotes();

    default SiteBrowser browser() {
        return new SiteBrowser(base());
    }

    /**
     * Everything a user could see of the books: every account with its profile and holdings, every quote, and the
     * audit's account count. Equal before and after a request means the request changed nothing.
     */
    default String books() {
        TradeService trade = trade();
        StringBuilder s = new StringBuilder();
        IntStream.range(0, users()).mapToObj(i -> "uid:" + i).forEach(u -> {
            Optional<Account> a = trade.account(u);
            s.append(a.map(x -> x.accountId() + " " + x.balance() + " " + x.openBalance()).orElse("none")).append('|');
            s.append(trade.profile(u).map(Profile::toString).orElse("none")).append('|');
            for (Holding h : trade.holdings(u)) {
                s.append(h.holdingId()).append(' ').append(h.symbol()).append(' ').append(h.quantity()).append(';');
            }
            s.append('\n');
        });
        List<String> symbols = new ArrayList<>();
        for (int i = 0; i < quotes(); i++) {
            symbols.add("s:" + i);
        }
        for (int from = 0; from < symbols.size(); from += 10) {
            for (Quote q : trade.quotes(symbols.subList(from, Math.min(symbols.size(), from + 10)))) {
                s.append(q).append('\n');
            }
        }
        return s.append(trade.audit().accountsChecked()).toString();
    }
}
