package perflab.voicemail.lean;

import perflab.voicemail.VoicemailPages;
import perflab.voicemail.lean.sip.TestPeers;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Users' browsers arriving on a schedule, as the driver's open model has them, on one HTTP client (each user sends
 * its own session cookie, so thousands of users need no client each): the page, the click and, when the click was
 * admitted, the hang-up a hold later, from the page for web users and from the phone (a {@link TestPeers} BYE) for
 * the others. What each click and hang-up got is kept for the test; a refused user keeps its page open, so it can
 * click again.
 */
final class Crowd implements AutoCloseable {
    /** One user: who, how it hangs up, and its session once the page answered. */
    static final class User {
        final String id;
        final boolean webHangup;
        volatile String cookie;

        User(String id, boolean webHangup) {
            this.id = id;
            this.webHangup = webHangup;
        }
    }

    /**
     * What a click got.
     *
     * @param retryAfter the 503's {@code Retry-After}, null when there was none
     * @param answeredAtNanos when the answer came ({@link System#nanoTime()}): a refused user waits from then
     */
    record Click(User user, int status, long latencyNanos, String retryAfter, long answeredAtNanos) {
        boolean admitted() {
            return status == 200;
        }

        boolean refused() {
            return status == 503;
        }
    }

    private final int port;
    private final TestPeers peers;
    private final Duration hold;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();
    private final ScheduledExecutorService clock = Executors.newSingleThreadScheduledExecutor();
    final Queue<Click> clicks = new ConcurrentLinkedQueue<>();
    /** The web hang-ups' HTTP statuses. */
    final Queue<Integer> webHangups = new ConcurrentLinkedQueue<>();

    Crowd(int port, TestPeers peers, Duration hold) {
        this.port = port;
        this.peers = peers;
        this.hold = hold;
        peers.phoneHold = hold;
    }

    /** Users arriving {@code perSecond}, evenly spaced from now: each opens its page and clicks. */
    CompletableFuture<Void> arrive(List<User> users, double perSecond) {
        long gapNanos = (long) (1e9 / perSecond);
        CompletableFuture<?>[] done = new CompletableFuture<?>[users.size()];
        for (int i = 0; i < users.size(); i++) {
            User user = users.get(i);
            done[i] = at(i * gapNanos).thenCompose(x -> page(user)).thenCompose(x -> click(user));
        }
        return CompletableFuture.allOf(done);
    }

    /**
     * The refused users clicking again, their page still open, in the given order at {@code perSecond}: as browsers
     * honour Retry-After, none before the time its 503 said, counted from its answer.
     */
    CompletableFuture<Void> clickAgain(List<Click> refused, double perSecond) {
        long gapNanos = (long) (1e9 / perSecond);
        long now = System.nanoTime();
        long first = refused.isEmpty() ? now : Math.max(now, retryTime(refused.get(0)));
        CompletableFuture<?>[] done = new CompletableFuture<?>[refused.size()];
        for (int i = 0; i < refused.size(); i++) {
            Click r = refused.get(i);
            // paced from the first one's time, so the refused do not all come back at once when their times fall
            long due = Math.max(first + i * gapNanos, retryTime(r));
            done[i] = at(due - now).thenCompose(x -> click(r.user()));
        }
        return CompletableFuture.allOf(done);
    }

    private static long retryTime(Click refused) {
        return refused.answeredAtNanos() + TimeUnit.SECONDS.toNanos(Long.parseLong(refused.retryAfter()));
    }

    private CompletableFuture<Void> at(long delayNanos) {
        CompletableFuture<Void> due = new CompletableFuture<>();
        clock.schedule(() -> due.complete(null), delayNanos, TimeUnit.NANOSECONDS);
        return due;
    }

    private CompletableFuture<Void> page(User user) {
        return get(VoicemailPages.page(user.id), null).thenAccept(r -> {
            if (r.statusCode() != 200) {
                throw new IllegalStateException("page of " + user.id + ": HTTP " + r.statusCode());
            }
            String set = r.headers().firstValue("Set-Cookie").orElseThrow();
            user.cookie = set.substring(0, set.indexOf(';') < 0 ? set.length() : set.indexOf(';'));
        });
    }

    /** The click; once admitted, the hang-up comes a hold later from the page or the phone. */
    private CompletableFuture<Void> click(User user) {
        if (!user.webHangup) {
            peers.phoneHangsUp.add(user.id); // the phone hangs up a hold after the call is up, if it comes up
        }
        long sent = System.nanoTime();
        return get(VoicemailPages.page(user.id) + VoicemailPages.CHECK, user.cookie).thenCompose(r -> {
            long answered = System.nanoTime();
            Click click = new Click(user, r.statusCode(), answered - sent,
                    r.headers().firstValue("Retry-After").orElse(null), answered);
            clicks.add(click);
            if (!user.webHangup && !click.admitted()) {
                peers.phoneHangsUp.remove(user.id);
            }
            if (!click.admitted() || !user.webHangup) {
                return CompletableFuture.completedFuture(null);
            }
            return at(hold.toNanos()).thenCompose(x -> get(VoicemailPages.page(user.id) + VoicemailPages.HANGUP,
                    user.cookie)).thenAccept(h -> webHangups.add(h.statusCode()));
        });
    }

    private CompletableFuture<HttpResponse<String>> get(String path, String cookie) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10));
        if (cookie != null) {
            request.header("Cookie", cookie);
        }
        return http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Override
    public void close() {
        clock.shutdownNow(); // the HTTP client has no close before Java 21: its threads end when it is unreachable
    }
}
