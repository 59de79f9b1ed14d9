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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The server's own account of the calls after the drive (summary.json's {@code checks.calls}): converged operations
 * by how they ended, failures by reason, clicks refused at the door, and the users still in a call. It is asked
 * once the SIPp peers have stopped, so nothing ends a call any more but the server's own tear-downs in flight: it
 * waits until no user is in a call, or the count has not moved for {@link #SETTLED}, or {@link #DRAIN_LIMIT}. Users
 * still in a call then are those whose hang-up was due after the drive ended (a web user's page never sent it, a
 * phone was stopped in its hold), reported, not failed. Neither does a failure the server counted fail the run: the
 * SIPp peers' {@code failedCalls} say the same from outside. {@code leaked} is what must be zero: clicks the server
 * took that neither ended, failed nor are still in a call.
 */
final class CallsCheck {
    static final String NAME = "calls";
    static final Duration DRAIN_LIMIT = Duration.ofSeconds(30);
    static final Duration SETTLED = Duration.ofSeconds(4);
    private static final Duration POLL = Duration.ofMillis(250);

    private CallsCheck() {
    }

    static RunCheck ask(URI target) {
        return askAll(List.of(target));
    }

    /**
     * The check of a SUT run as several instances: each instance's account (at its own port) once it has settled,
     * added up, so that a user's click counted by its home instance and its end counted there balance; unavailable
     * when one instance cannot answer. The instances settle side by side: one after the other, each would wait its
     * own {@link #SETTLED} in turn.
     */
    static RunCheck askAll(List<URI> instances) {
        List<CompletableFuture<Object>> answers = new ArrayList<>();
        for (URI target : instances) {
            answers.add(CompletableFuture.supplyAsync(() -> settled(target), runnable -> {
                Thread t = new Thread(runnable, "calls-check " + target.getRawAuthority());
                t.setDaemon(true);
                t.start();
            }));
        }
        com.fasterxml.jackson.databind.node.ObjectNode sum = null;
        for (CompletableFuture<Object> pending : answers) {
            Object answer = pending.join();
            if (answer instanceof RunCheck unavailable) {
                return unavailable;
            }
            JsonNode one = (JsonNode) answer;
            sum = sum == null ? one.deepCopy() : add(sum, one);
        }
        return read(sum);
    }

    /** Every number of {@code other} added to the same path in {@code into} (objects merged, a missing number 0). */
    static com.fasterxml.jackson.databind.node.ObjectNode add(com.fasterxml.jackson.databind.node.ObjectNode into,
                                                                JsonNode other) {
        other.fields().forEachRemaining(e -> {
            JsonNode mine = into.get(e.getKey());
            if (e.getValue().isObject()) {
                into.set(e.getKey(), add(mine != null && mine.isObject()
                        ? (com.fasterxml.jackson.databind.node.ObjectNode) mine : into.objectNode(), e.getValue()));
            } else if (e.getValue().isNumber()) {
                into.put(e.getKey(), (mine != null && mine.isNumber() ? mine.asLong() : 0) + e.getValue().asLong());
            }
        });
        return into;
    }

    /** One server's stats answer once no user is left in a call (or it stopped moving), or why there is none. */
    private static Object settled(URI target) {
        URI stats = URI.create(target.getScheme() + "://" + target.getRawAuthority() + VoicemailPages.STATS);
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        long start = System.nanoTime();
        long lastChange = start;
        long previous = -1;
        JsonNode answer;
        try {
            while (true) {
                HttpResponse<String> response = http.send(HttpRequest.newBuilder(stats).timeout(Duration.ofSeconds(10))
                        .GET().build(), HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() != 200) {
                    return RunCheck.unavailable(NAME, stats + " answered " + response.statusCode());
                }
                answer = new ObjectMapper().readTree(response.body());
                if (answer == null || !answer.has("liveSipUsers")) {
                    return RunCheck.unavailable(NAME, stats + " gave no liveSipUsers");
                }
                long live = answer.get("liveSipUsers").asLong();
                long now = System.nanoTime();
                if (live != previous) {
                    previous = live;
                    lastChange = now;
                }
                if (live == 0 || now - lastChange > SETTLED.toNanos() || now - start > DRAIN_LIMIT.toNanos()) {
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
        return answer;
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
        long clicks = answer.path("clicks").asLong();
        long takenOver = answer.path("sip").path("calls.taken-over").asLong();
        details.put("takenOver", takenOver);
        long takenBack = answer.path("sip").path("calls.taken-back").asLong();
        long handedBack = answer.path("sip").path("calls.handed-back").asLong();
        if (takenBack + handedBack > 0) {
            details.put("takenBack", takenBack);
            details.put("handedBack", handedBack);
        }
        long setupFailures = failures.values().stream().mapToLong(Long::longValue).sum();
        // a call starts with a click here, is taken over from a failed partner or taken back by its home instance
        // come back, and ends as an operation or a failure (at set-up or mid-call), goes back to its home (handed
        // back: it goes on there), or is still in its call
        long leaked = clicks + takenOver + takenBack - (phone + web) - failedMidCall - setupFailures - handedBack
                - liveSip;
        details.put("liveSessions", live);
        details.put("liveSipUsers", liveSip);
        details.put("leaked", leaked);
        Map<String, Long> sip = new LinkedHashMap<>();
        answer.path("sip").fields().forEachRemaining(e -> sip.put(e.getKey(), e.getValue().asLong()));
        details.put("sip", sip);
        String line = (phone + web) + " converged operations (" + phone + " hung up by the phone, " + web
                + " from the page), " + (setupFailures + failedMidCall) + " failed, " + answer.path("refused").asLong()
                + " refused; " + (takenOver == 0 ? "" : takenOver + " taken over from a failed instance; ")
                + (takenBack == 0 ? "" : takenBack + " taken back by their instance come back; ")
                + (liveSip == 0 ? "no user left in a call" : liveSip + " users still in a call after the "
                + "drive (their hang-up came after it)") + (leaked == 0 ? "" : "; " + leaked + " sessions LEAKED");
        return new RunCheck(NAME, leaked == 0 ? RunCheck.PASSED : RunCheck.FAILED, line, details);
    }
}
