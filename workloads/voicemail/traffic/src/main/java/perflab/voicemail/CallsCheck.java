package perflab.voicemail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import perflab.core.result.RunCheck;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The server's own account of the calls after the drive (summary.json's {@code checks.calls}): converged operations
 * by how they ended, failures by reason, clicks refused at the door, and whether every application session was gone
 * once the calls in progress ended ({@code drained}: no session leaked). It waits for the sessions to drain for up
 * to {@link #DRAIN_LIMIT}; calls held longer than that are still up, and are reported, not failed. A failure
 * counted by the server does not fail the run either: the SIPp peers' {@code failedCalls} say the same from outside.
 * Only sessions left behind by calls that did end fail it: that is a leak.
 */
final class CallsCheck {
    static final String NAME = "calls";
    static final Duration DRAIN_LIMIT = Duration.ofSeconds(30);
    private static final Duration POLL = Duration.ofMillis(250);

    private CallsCheck() {
    }

    static RunCheck ask(URI target) {
        URI stats = URI.create(target.getScheme() + "://" + target.getRawAuthority() + VoicemailPages.STATS);
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        long deadline = System.nanoTime() + DRAIN_LIMIT.toNanos();
        JsonNode answer;
        try {
            while (true) {
                HttpResponse<String> response = http.send(HttpRequest.newBuilder(stats).timeout(Duration.ofSeconds(10))
                        .GET().build(), HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() != 200) {
                    return RunCheck.unavailable(NAME, stats + " answered " + response.statusCode());
                }
                answer = new ObjectMapper().readTree(response.body());
                if (answer == null || !answer.has("liveSessions")) {
                    return RunCheck.unavailable(NAME, stats + " gave no liveSessions");
                }
                if (answer.get("liveSessions").asLong() == 0 || System.nanoTime() > deadline) {
                    break;
                }
                Thread.sleep(POLL.toMillis());
            }
        } catch (IOException e) {
            return RunCheck.unavailable(NAME, "no answer from " + stats + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return RunCheck.unavailable(NAME, "interrupted while asking " + stats);
        }
        return read(answer);
    }

    /** The check from the stats page's answer. */
    static RunCheck read(JsonNode answer) {
        Map<String, Object> details = new LinkedHashMap<>();
        JsonNode operations = answer.path("operations");
        long phone = operations.path("phone-hangup").asLong();
        long web = operations.path("web-hangup").asLong();
        long failedMidCall = operations.path("failed").asLong();
        long live = answer.path("liveSessions").asLong();
        long liveSip = answer.path("liveSipUsers").asLong();
        details.put("operations", phone + web);
        details.put("phoneHangups", phone);
        details.put("webHangups", web);
        details.put("failedMidCall", failedMidCall);
        details.put("clicks", answer.path("clicks").asLong());
        details.put("refused", answer.path("refused").asLong());
        Map<String, Long> failures = new LinkedHashMap<>();
        answer.path("failures").fields().forEachRemaining(e -> failures.put(e.getKey(), e.getValue().asLong()));
        details.put("failures", failures);
        details.put("liveSessions", live);
        details.put("liveSipUsers", liveSip);
        details.put("drained", live == 0 && liveSip == 0);
        Map<String, Long> sip = new LinkedHashMap<>();
        answer.path("sip").fields().forEachRemaining(e -> sip.put(e.getKey(), e.getValue().asLong()));
        details.put("sip", sip);
        long failed = failures.values().stream().mapToLong(Long::longValue).sum() + failedMidCall;
        String line = (phone + web) + " converged operations (" + phone + " hung up by the phone, " + web
                + " from the page), " + failed + " failed, " + answer.path("refused").asLong() + " refused; "
                + (live == 0 && liveSip == 0 ? "every session gone" : live + " sessions still alive after "
                + DRAIN_LIMIT.toSeconds() + " s");
        return new RunCheck(NAME, RunCheck.PASSED, line, details);
    }
}
