package perflab.trade.lean.web;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import perflab.trade.lean.site.SiteRequest;
import perflab.trade.site.SiteUnderTest;
import perflab.trade.site.TradeSiteContract;

import java.net.InetSocketAddress;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The lean stack's pages pass the page contract every trade stack passes ({@link TradeSiteContract}), on a real
 * Jetty over a fresh in-memory H2 database.
 */
class TradeWebTest extends TradeSiteContract {
    private static WebSite site;

    @BeforeAll
    static void start() throws Exception {
        site = new WebSite(6, 30);
    }

    @AfterAll
    static void stop() throws Exception {
        site.close();
    }

    @Override
    protected SiteUnderTest site() {
        return site;
    }

    /** The audit's loopback rule, for the addresses a test on this machine cannot come from. */
    @Test
    void theAuditAnswersLoopbackAddressesOnly() {
        assertFalse(SiteRequest.loopback(new InetSocketAddress("198.18.0.7", 4000)), "another machine is refused");
        assertTrue(SiteRequest.loopback(new InetSocketAddress("::1", 4000)));
        assertTrue(SiteRequest.loopback(new InetSocketAddress("127.0.0.1", 4000)));
    }
}
