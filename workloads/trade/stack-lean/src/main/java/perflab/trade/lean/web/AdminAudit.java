package perflab.trade.lean.web;

import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import perflab.trade.lean.AuditReport;
import perflab.trade.lean.TradeService;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.concurrent.Semaphore;

/**
 * {@code GET /admin/audit}: the consistency audit perflab asks for after every run, once the load has stopped
 * (see {@link TradeService#audit()}): first it waits for asynchronous completions to drain, then it checks every
 * account, and answers {@code {"drained":true,"accountsChecked":N,"violationCount":M,"firstViolations":[...]}}.
 * An audit reads every table, so only a client on this machine may ask, and only one audit runs at a time (a
 * second gets 429): it is not a page a load test or a stranger can use to load the database.
 */
final class AdminAudit {
    static final String PATH = perflab.trade.contract.TradePages.ADMIN_AUDIT;
    static final Duration DRAIN_LIMIT = Duration.ofSeconds(60);

    private final TradeService trade;
    private final PageWriter out;
    private final Semaphore oneAtATime = new Semaphore(1);

    AdminAudit(TradeService trade, PageWriter out) {
        this.trade = trade;
        this.out = out;
    }

    void handle(Request request, Response response, Callback callback) {
        if (!fromThisMachine(request.getConnectionMetaData().getRemoteSocketAddress())) {
            out.plain(response, callback, 403, "the audit is answered to this machine only");
            return;
        }
        if (!oneAtATime.tryAcquire()) {
            out.plain(response, callback, 429, "an audit is running; ask again when it has answered");
            return;
        }
        try {
            boolean drained = trade.awaitCompletions(DRAIN_LIMIT);
            AuditReport report = trade.audit();
            StringBuilder json = new StringBuilder("{\"drained\":").append(drained)
                    .append(",\"accountsChecked\":").append(report.accountsChecked())
                    .append(",\"violationCount\":").append(report.violationCount())
                    .append(",\"firstViolations\":[");
            for (int i = 0; i < report.firstViolations().size(); i++) {
                JsonText.string(json.append(i > 0 ? "," : ""), report.firstViolations().get(i));
            }
            out.json(response, callback, json.append("]}").toString());
        } finally {
            oneAtATime.release();
        }
    }

    static boolean fromThisMachine(SocketAddress peer) {
        return peer instanceof InetSocketAddress a && a.getAddress() != null && a.getAddress().isLoopbackAddress();
    }
}
