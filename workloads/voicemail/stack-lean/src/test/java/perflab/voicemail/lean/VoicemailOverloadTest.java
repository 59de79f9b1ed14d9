package perflab.voicemail.lean;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import perflab.core.sut.SutArgs;
import perflab.testsupport.Poll;
import perflab.voicemail.VoicemailPages;
import perflab.voicemail.lean.sip.TestPeers;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 11's overload at a reduced scale: the whole server (Jetty and its SIP stack on loopback, {@link TestPeers} as
 * the phone, the line and the notifier) with an admission limit of {@value #MAX_CALLS} users in a call and calls
 * held {@link #HOLD}, so it can take {@link #CAPACITY} new users a second. Users arrive at twice that for
 * {@link #OVERLOAD}; then the load drops to half the capacity: the users refused come back, as the 503's
 * Retry-After told them. Past capacity the click must be refused at the door, while the calls admitted stay fast,
 * every hang-up (web or phone BYE) is answered and every call ends; once the load dropped nobody is refused, and in
 * the end nothing is left behind.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class VoicemailOverloadTest {
    static final int MAX_CALLS = 16;
    static final Duration HOLD = Duration.ofSeconds(1);
    /** New users a second the limit lets in: each holds one of the {@link #MAX_CALLS} places for a hold. */
    static final double CAPACITY = MAX_CALLS * 1000.0 / HOLD.toMillis();
    static final Duration OVERLOAD = Duration.ofSeconds(3);
    /**
     * An admitted click's p99 bound. A click takes a few milliseconds on loopback; the bound is for a shared 2-CPU
     * machine, and still under the server's SIP T1 (500 ms) doubled: a server that let calls queue past capacity
     * would take seconds (the clicks waiting for places), one that retransmits takes T1 and more.
     */
    static final Duration CLICK_P99 = Duration.ofSeconds(1);
    private static final Duration SETTLE = Duration.ofSeconds(20);

    private final TestPeers peers = new TestPeers();
    private final HttpClient statsClient = HttpClient.newHttpClient();
    private VoicemailServer server;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop();
        }
        peers.close();
    }

    @Test
    void atTwiceTheCapacityTheExcessIsRefusedAtTheDoorTheAdmittedCallsStayFastAndEndAndTheServerRecovers() throws Exception {
        server = VoicemailServer.start(SutArgs.parse(new String[]{"--port", "0", "--max-calls", Integer.toString(MAX_CALLS),
                "--phone", peers.address(peers.phone), "--line", peers.address(peers.line), "--notifier",
                peers.address(peers.notifier)}, VoicemailSettings.NAMES));
        try (Crowd crowd = new Crowd(server.port(), peers, HOLD)) {
            List<Crowd.User> users = new ArrayList<>();
            for (int i = 0; i < 2 * CAPACITY * OVERLOAD.toSeconds(); i++) {
                users.add(new Crowd.User(String.format("u%07d", i), i % 2 == 0)); // half hang up from the page
            }
            crowd.arrive(users, 2 * CAPACITY).get(60, TimeUnit.SECONDS);
            List<Crowd.Click> overload = List.copyOf(crowd.clicks);
            List<Crowd.Click> refused = only(overload, Crowd.Click::refused);
            assertEquals(users.size(), only(overload, Crowd.Click::admitted).size() + refused.size(),
                    "each click admitted (200) or refused at the door (503): " + statuses(overload));
            double share = (double) refused.size() / users.size();
            assertTrue(share >= 0.2 && share <= 0.8, "about half refused at twice the capacity: " + statuses(overload));
            for (Crowd.Click r : refused) {
                assertEquals(Integer.toString(VoicemailPages.RETRY_AFTER_SECONDS), r.retryAfter(), r.toString());
            }
            assertAdmittedFast(overload);
            awaitStats(s -> number(s, "liveSipUsers") == 0, "the overload's calls ended");

            // the load drops to half the capacity: those refused come back (Retry-After) and nobody is refused
            crowd.clicks.clear();
            List<Crowd.Click> comeBack = new ArrayList<>(refused);
            comeBack.sort(Comparator.comparingLong(Crowd.Click::answeredAtNanos));
            crowd.clickAgain(comeBack, CAPACITY / 2).get(60, TimeUnit.SECONDS);
            List<Crowd.Click> recovery = List.copyOf(crowd.clicks);
            assertEquals(refused.size(), only(recovery, Crowd.Click::admitted).size(), "none refused: " + statuses(recovery));
            assertAdmittedFast(recovery);

            String stats = awaitStats(s -> number(s, "liveSessions") == 0 && number(s, "liveSipUsers") == 0
                    && peers.phoneByeAnswers.size() == users.size() / 2, "every call ended, every session with it");
            assertEquals(refused.size(), number(stats, "refused"), stats);
            assertEquals(users.size(), number(stats, "clicks"), "the clicks the server took: " + stats);
            assertEquals(users.size() / 2, number(stats, "web-hangup"), stats);
            assertEquals(users.size() / 2, number(stats, "phone-hangup"), stats);
            assertEquals(0, number(stats, "failed"), "no call failed mid-call: " + stats);
            assertTrue(stats.contains("\"failures\":{}") && stats.contains("\"hangupFailures\":{}"), stats);
            assertEquals(List.of(200), crowd.webHangups.stream().distinct().toList(), "web hang-ups never refused");
            assertEquals(users.size() / 2, crowd.webHangups.size());
            assertEquals(List.of(200), peers.phoneByeAnswers.stream().distinct().toList(), "the phones' BYEs answered");
        }
    }

    private static void assertAdmittedFast(List<Crowd.Click> clicks) {
        List<Long> ms = clicks.stream().filter(Crowd.Click::admitted)
                .map(c -> TimeUnit.NANOSECONDS.toMillis(c.latencyNanos())).sorted().toList();
        long p99 = ms.get((int) Math.ceil(0.99 * ms.size()) - 1);
        assertTrue(p99 < CLICK_P99.toMillis(), "admitted clicks' p99 " + p99 + " ms; all, in ms: " + ms);
    }

    private static List<Crowd.Click> only(List<Crowd.Click> clicks, Predicate<Crowd.Click> which) {
        return clicks.stream().filter(which).toList();
    }

    /** Clicks by HTTP status, for the failure messages. */
    private static Map<Integer, Long> statuses(List<Crowd.Click> clicks) {
        return clicks.stream().collect(Collectors.groupingBy(Crowd.Click::status, TreeMap::new, Collectors.counting()));
    }

    /** The stats page once {@code done} accepts it. */
    private String awaitStats(Predicate<String> done, String what) throws Exception {
        return Poll.until(what, SETTLE, () -> new Seen(stats(), peers.phoneByeAnswers.size()),
                seen -> done.test(seen.stats())).stats();
    }

    /** The stats page and the phones' BYEs answered when it was read: a failed wait shows both. */
    private record Seen(String stats, int phoneByesAnswered) {
    }

    private String stats() throws Exception {
        return statsClient.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port()
                + VoicemailPages.STATS)).timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    /** A counter of the stats page by its own name (names are unique there: nested ones are prefixed with a dot). */
    private static long number(String stats, String name) {
        Matcher m = Pattern.compile("\"" + Pattern.quote(name) + "\":(\\d+)").matcher(stats);
        assertTrue(m.find(), name + " in " + stats);
        return Long.parseLong(m.group(1));
    }
}
