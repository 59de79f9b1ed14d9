package perflab.voicemail.lean;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import perflab.core.sut.SutArgs;
import perflab.testsupport.Poll;
import perflab.voicemail.VoicemailPages;
import perflab.voicemail.lean.sip.TestPeers;

import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The whole server, web side and SIP side, against the three peers played by Java on loopback: a user's page, the
 * click, the hang-up from either end, the refusals (no session, someone else's, twice, a full server), and that
 * every session is gone once its calls ended.
 */
class VoicemailServerTest {
    private final TestPeers peers = new TestPeers();
    private VoicemailServer server;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop();
        }
        peers.close();
    }

    private VoicemailServer start(String... more) throws Exception {
        String[] args = new String[8 + more.length];
        String[] base = {"--port", "0", "--phone", peers.address(peers.phone), "--line", peers.address(peers.line),
                "--notifier", peers.address(peers.notifier)};
        System.arraycopy(base, 0, args, 0, 8);
        System.arraycopy(more, 0, args, 8, more.length);
        server = VoicemailServer.start(SutArgs.parse(args, VoicemailSettings.NAMES));
        return server;
    }

    /** A browser: its own cookies. */
    private final class Browser {
        final HttpClient http = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();

        HttpResponse<String> get(String path) throws Exception {
            return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                    .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        }
    }

    private String stats() throws Exception {
        return new Browser().get(VoicemailPages.STATS).body();
    }

    private void awaitStats(String fragment) throws Exception {
        Poll.until(fragment + " in the stats page", Duration.ofSeconds(30), this::stats, s -> s.contains(fragment));
    }

    @Test
    void aUserChecksTheVoiceMailAndHangsUpFromThePage() throws Exception {
        start();
        Browser b = new Browser();
        HttpResponse<String> page = b.get(VoicemailPages.page("u0000007"));
        assertEquals(200, page.statusCode());
        assertTrue(page.body().contains(VoicemailPages.USER_MARKER + "u0000007\""), page.body());
        assertTrue(page.headers().firstValue("Set-Cookie").orElse("").startsWith(VoicemailPages.SESSION_COOKIE + "="));
        HttpResponse<String> check = b.get(VoicemailPages.page("u0000007") + VoicemailPages.CHECK);
        assertEquals(200, check.statusCode(), check.body());
        assertTrue(check.body().contains(VoicemailPages.CALL_UP), check.body());
        assertTrue(stats().contains("\"liveSessions\":1"), stats());
        assertEquals(409, b.get(VoicemailPages.page("u0000007") + VoicemailPages.CHECK).statusCode(), "one call at a time");
        HttpResponse<String> hangup = b.get(VoicemailPages.page("u0000007") + VoicemailPages.HANGUP);
        assertEquals(200, hangup.statusCode(), hangup.body());
        assertTrue(hangup.body().contains(VoicemailPages.CALL_DOWN), hangup.body());
        awaitStats("\"web-hangup\":1");
        awaitStats("\"liveSessions\":0,\"liveSipUsers\":0");
        assertEquals(403, b.get(VoicemailPages.page("u0000007") + VoicemailPages.HANGUP).statusCode(),
                "the session ended with the call");
    }

    @Test
    void thePhoneHangsUpAndTheSessionEnds() throws Exception {
        start();
        peers.phoneHangsUp.add("u0000008");
        Browser b = new Browser();
        b.get(VoicemailPages.page("u0000008"));
        assertEquals(200, b.get(VoicemailPages.page("u0000008") + VoicemailPages.CHECK).statusCode());
        awaitStats("\"phone-hangup\":1");
        awaitStats("\"liveSessions\":0,\"liveSipUsers\":0");
    }

    @Test
    void aClickWithoutTheUsersSessionIsForbiddenAndBadRequestsAreRefused() throws Exception {
        start();
        Browser owner = new Browser();
        Browser other = new Browser();
        owner.get(VoicemailPages.page("u0000009"));
        other.get(VoicemailPages.page("u0000010"));
        assertEquals(403, new Browser().get(VoicemailPages.page("u0000009") + VoicemailPages.CHECK).statusCode());
        assertEquals(403, other.get(VoicemailPages.page("u0000009") + VoicemailPages.CHECK).statusCode(),
                "another user's session");
        assertEquals(409, owner.get(VoicemailPages.page("u0000009") + VoicemailPages.HANGUP).statusCode(), "no call");
        assertEquals(400, owner.get(VoicemailPages.USERS + "u%0d%0aVia:x").statusCode(), "no header smuggled into SIP");
        assertEquals(404, owner.get(VoicemailPages.page("u0000009") + "/delete").statusCode());
        HttpResponse<String> post = owner.http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port()
                + VoicemailPages.page("u0000009"))).POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(405, post.statusCode());
        assertTrue(stats().contains("\"clicks\":0"), "nothing reached SIP: " + stats());
    }

    @Test
    void aFullServerRefusesNewClicksAtTheDoorAndStillEndsTheCallsItHas() throws Exception {
        start("--max-calls", "1");
        Browser first = new Browser();
        Browser second = new Browser();
        first.get(VoicemailPages.page("u0000011"));
        second.get(VoicemailPages.page("u0000012"));
        assertEquals(200, first.get(VoicemailPages.page("u0000011") + VoicemailPages.CHECK).statusCode());
        HttpResponse<String> refused = second.get(VoicemailPages.page("u0000012") + VoicemailPages.CHECK);
        assertEquals(503, refused.statusCode());
        assertEquals(Integer.toString(VoicemailPages.RETRY_AFTER_SECONDS), refused.headers().firstValue("Retry-After").orElse(""));
        assertEquals(200, first.get(VoicemailPages.page("u0000011") + VoicemailPages.HANGUP).statusCode(),
                "a hang-up is never refused");
        awaitStats("\"liveSipUsers\":0");
        assertEquals(200, second.get(VoicemailPages.page("u0000012") + VoicemailPages.CHECK).statusCode(),
                "admitted once there is room");
        assertTrue(stats().contains("\"refused\":1"), stats());
    }

    @Test
    void badSettingsAreRefusedInOneLine() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> VoicemailSettings.from(
                SutArgs.parse(new String[]{"--phone", "phone.example:5060", "--line", "127.0.0.1:1", "--notifier",
                        "127.0.0.1:2"}, VoicemailSettings.NAMES)));
        assertEquals("--phone: 'phone.example:5060' is not ip:port", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> VoicemailSettings.from(SutArgs.parse(new String[]{
                "--line", "127.0.0.1:1", "--notifier", "127.0.0.1:2"}, VoicemailSettings.NAMES)));
    }
}
