package perflab.trade.lean.web;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import perflab.trade.site.SiteUnderTest;
import perflab.trade.site.TradeBrowserContract;

/** A person in headless Chromium at the lean stack's pages ({@link TradeBrowserContract}), on a fresh {@link WebSite}. */
class TradeBrowserTest extends TradeBrowserContract {
    private static WebSite site;

    @BeforeAll
    static void start() throws Exception {
        site = new WebSite(4, 20);
    }

    @AfterAll
    static void stop() throws Exception {
        site.close();
    }

    @Override
    protected SiteUnderTest site() {
        return site;
    }
}
