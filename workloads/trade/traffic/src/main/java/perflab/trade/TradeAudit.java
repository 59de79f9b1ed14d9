package perflab.trade;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import perflab.core.result.RunCheck;
import perflab.trade.contract.TradePages;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The consistency audit after a run (summary.json's {@code checks.audit}): asks the server's {@link
 * TradePages#ADMIN_AUDIT} once the driver has stopped. Every account's balance against its completed orders,
 * every holding against a closed buy, no order left open after the drain, every quote's volume against the
 * quantities ordered. A violation, or orders still open because completions did not drain, fails the run.
 */
final class TradeAudit {
    static final String NAME = "audit";
    /** The server drains for up to a minute, then reads every table. */
    static final Duration ANSWER_LIMIT = Duration.ofMinutes(3);

    private TradeAudit() {
    }

    static RunCheck ask(URI target) {
        URI audit = URI.create(target.getScheme() + "://" + target.getRawAuthority()
                + TradeTraffic.basePath(target) + TradePages.ADMIN_AUDIT);
        HttpResponse<String> response;
        try {
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
            response = http.send(HttpRequest.newBuilder(audit).timeout(ANSWER_LIMIT).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            return RunCheck.unavailable(NAME, "no answer from " + audit + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return RunCheck.unavailable(NAME, "interrupted while asking " + audit);
        }
        if (response.statusCode() != 200) {
            return RunCheck.unavailable(NAME, audit + " answered " + response.statusCode()
                    + " (a server without perflab's audit)");
        }
        return read(response.body());
    }

    /** The check from the server's answer. */
    static RunCheck read(String body) {
        JsonNode answer;
        try {
            answer = new ObjectMapper().readTree(body);
        } catch (IOException e) {
            return RunCheck.unavailable(NAME, "the audit's answer is not JSON: " + e.getMessage());
        }
        if (answer == null || !answer.has("accountsChecked") || !answer.has("violationCount")) {
            return RunCheck.unavailable(NAME, "the audit's answer lacks accountsChecked or violationCount");
        }
        long accounts = answer.get("accountsChecked").asLong();
        long violations = answer.get("violationCount").asLong();
        boolean drained = answer.path("drained").asBoolean(true);
        List<String> first = new ArrayList<>();
        answer.path("firstViolations").forEach(v -> first.add(v.asText()));
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("accountsChecked", accounts);
        details.put("violationCount", violations);
        details.put("drained", drained);
        details.put("violations", first);
        boolean clean = violations == 0 && drained;
        String line = accounts + " accounts checked, " + violations + " violation" + (violations == 1 ? "" : "s")
                + (drained ? "" : ", order completions still pending after the drain")
                + (first.isEmpty() ? "" : "; first: " + first.get(0));
        return new RunCheck(NAME, clean ? RunCheck.PASSED : RunCheck.FAILED, line, details);
    }
}
