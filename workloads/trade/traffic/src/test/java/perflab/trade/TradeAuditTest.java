package perflab.trade;

import org.junit.jupiter.api.Test;
import perflab.core.result.RunCheck;

import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;

import com.sun.net.httpserver.HttpServer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The audit after a run, as the run reads the server's answer: clean passes, anything else fails or is unavailable. */
class TradeAuditTest {
    @Test
    void aCleanDrainedAuditPasses() {
        RunCheck c = TradeAudit.read("{\"drained\":true,\"accountsChecked\":300,\"violationCount\":0,\"firstViolations\":[]}");
        assertEquals(RunCheck.PASSED, c.status());
        assertEquals("300 accounts checked, 0 violations", c.line());
        assertEquals(300L, c.details().get("accountsChecked"));
    }

    @Test
    void aViolationFailsTheRunAndNamesTheFirst() {
        RunCheck c = TradeAudit.read("{\"drained\":true,\"accountsChecked\":300,\"violationCount\":2,"
                + "\"firstViolations\":[\"uid:7: balance 10.00, orders say 35.00\",\"order 9 is open\"]}");
        assertTrue(c.failed());
        assertTrue(c.line().startsWith("300 accounts checked, 2 violations; first: uid:7: balance"), c.line());
        assertEquals(List.of("uid:7: balance 10.00, orders say 35.00", "order 9 is open"), c.details().get("violations"));
    }

    @Test
    void completionsThatDidNotDrainFailTheRun() {
        RunCheck c = TradeAudit.read("{\"drained\":false,\"accountsChecked\":3,\"violationCount\":0,\"firstViolations\":[]}");
        assertTrue(c.failed());
        assertTrue(c.line().contains("still pending"), c.line());
    }

    @Test
    void anAnswerThatIsNotAnAuditIsUnavailableNotAFailure() {
        assertEquals(RunCheck.UNAVAILABLE, TradeAudit.read("<html>not found</html>").status());
        assertEquals(RunCheck.UNAVAILABLE, TradeAudit.read("{\"something\":1}").status());
    }

    @Test
    void aServerWithoutTheAuditIsUnavailable() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            exchange.sendResponseHeaders(404, -1);
            exchange.close();
        });
        server.start();
        try {
            URI target = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/daytrader/login");
            RunCheck c = TradeAudit.ask(target);
            assertEquals(RunCheck.UNAVAILABLE, c.status());
            assertTrue(c.line().contains("/daytrader/admin/audit answered 404"), c.line());
        } finally {
            server.stop(0);
        }
    }
}
