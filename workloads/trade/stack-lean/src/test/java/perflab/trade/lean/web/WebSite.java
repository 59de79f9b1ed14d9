package perflab.trade.lean.web;

import com.zaxxer.hikari.HikariDataSource;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import perflab.trade.lean.Account;
import perflab.trade.lean.Holding;
import perflab.trade.lean.Profile;
import perflab.trade.lean.Quote;
import perflab.trade.lean.TradeService;
import perflab.trade.lean.TradeSettings;
import perflab.trade.lean.data.JdbcTradeService;
import perflab.trade.lean.data.TradeDatabase;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

/**
 * The brokerage's pages on a real Jetty on loopback, over a fresh in-memory H2 database populated with a few users
 * and quotes, for the web tests; {@link Browser} is a person at it. Gone when closed.
 */
final class WebSite implements AutoCloseable {
    private static final AtomicInteger DATABASES = new AtomicInteger();

    final HikariDataSource dataSource;
    final TradeService trade;
    final Server server;
    final URI base;
    final int users;
    final int quotes;

    WebSite(int users, int quotes) throws Exception {
        this.users = users;
        this.quotes = quotes;
        dataSource = TradeDatabase.open("jdbc:h2:mem:trade-web-" + DATABASES.incrementAndGet(), 8, 16);
        trade = new JdbcTradeService(dataSource, TradeSettings.defaults());
        trade.populate(users, quotes, 7);
        server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        server.setHandler(TradeWeb.withSessions(trade, 1800));
        server.start();
        base = URI.create("http://127.0.0.1:" + connector.getLocalPort());
    }

    Browser browser() {
        return new Browser();
    }

    /**
     * Everything a user could see of the books: every account with its profile and holdings, every quote, and the
     * audit's account count. Equal before and after a request means the request changed nothing.
     */
    String books() {
        StringBuilder s = new StringBuilder();
        IntStream.range(0, users).mapToObj(i -> "uid:" + i).forEach(u -> {
            Optional<Account> a = trade.account(u);
            s.append(a.map(x -> x.accountId() + " " + x.balance() + " " + x.openBalance()).orElse("none")).append('|');
            s.append(trade.profile(u).map(Profile::toString).orElse("none")).append('|');
            for (Holding h : trade.holdings(u)) {
                s.append(h.holdingId()).append(' ').append(h.symbol()).append(' ').append(h.quantity()).append(';');
            }
            s.append('\n');
        });
        List<String> symbols = new ArrayList<>();
        for (int i = 0; i < quotes; i++) {
            symbols.add("s:" + i);
        }
        for (int from = 0; from < symbols.size(); from += 10) {
            for (Quote q : trade.quotes(symbols.subList(from, Math.min(symbols.size(), from + 10)))) {
                s.append(q).append('\n');
            }
        }
        return s.append(trade.audit().accountsChecked()).toString();
    }

    @Override
    public void close() throws Exception {
        try {
            server.stop();
        } finally {
            trade.close();
            dataSource.close();
        }
    }

    /** One person's browser: a session cookie, no redirects followed (the tests look at them), forms posted. */
    final class Browser {
        private final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
        String sessionCookie;

        HttpResponse<String> get(String path) throws IOException, InterruptedException {
            return send(request(path).GET());
        }

        /** Posts {@code fields} (name, value, name, value, ...) as a form. */
        HttpResponse<String> post(String path, String... fields) throws IOException, InterruptedException {
            StringBuilder body = new StringBuilder();
            for (int i = 0; i < fields.length; i += 2) {
                body.append(body.length() == 0 ? "" : "&").append(URLEncoder.encode(fields[i], StandardCharsets.UTF_8))
                        .append('=').append(URLEncoder.encode(fields[i + 1], StandardCharsets.UTF_8));
            }
            return send(request(path).header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString(body.toString())));
        }

        HttpResponse<String> login(String userId, String password) throws IOException, InterruptedException {
            return post("/login", "uid", userId, "passwd", password);
        }

        /** The session's CSRF token, from its home page. */
        String token() throws IOException, InterruptedException {
            String page = get("/home").body();
            String open = "name=\"csrf\" value=\"";
            int at = page.indexOf(open);
            if (at < 0) {
                throw new AssertionError("no CSRF token on the home page");
            }
            return page.substring(at + open.length(), page.indexOf('"', at + open.length()));
        }

        private HttpRequest.Builder request(String path) {
            HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path));
            if (sessionCookie != null) {
                b.header("Cookie", sessionCookie);
            }
            return b;
        }

        private HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            response.headers().firstValue("Set-Cookie").ifPresent(c -> sessionCookie = c.substring(0, c.indexOf(';')));
            return response;
        }
    }
}
