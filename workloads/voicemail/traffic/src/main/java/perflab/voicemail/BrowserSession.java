package perflab.voicemail;

import perflab.core.traffic.ClientSession;
import perflab.core.traffic.ErrorKind;
import perflab.core.traffic.Request;
import perflab.core.traffic.RequestTemplate;
import perflab.core.traffic.ResponseView;
import perflab.core.traffic.Verdict;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One connection's browser: it sends whichever user's step is due and checks the answer against what the server
 * promises ({@link VoicemailPages}). In the open model the steps come from the {@link UserAgenda}; in the closed
 * model the connection is one user after another (page, click, the hold as think time, the web hang-up), so
 * {@code --clients} is how many users are in a call at once.
 */
final class BrowserSession implements ClientSession {
    static final RequestTemplate PAGE = RequestTemplate.builder("page", "GET")
            .path(VoicemailPages.USERS + "${user}").build();
    static final RequestTemplate CHECK = RequestTemplate.builder("check", "GET")
            .path(VoicemailPages.USERS + "${user}" + VoicemailPages.CHECK).header("Cookie", "${cookie}").build();
    static final RequestTemplate HANGUP = RequestTemplate.builder("hangup", "GET")
            .path(VoicemailPages.USERS + "${user}" + VoicemailPages.HANGUP).header("Cookie", "${cookie}").build();
    static final List<String> KINDS = List.of("page", "check", "hangup");

    private static final byte[] CALL_UP = VoicemailPages.CALL_UP.getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CALL_DOWN = VoicemailPages.CALL_DOWN.getBytes(StandardCharsets.US_ASCII);
    private static final String COOKIE_PREFIX = VoicemailPages.SESSION_COOKIE + "=";

    private final UserAgenda agenda; // null in the closed model
    private final UserRange users;
    private final AtomicLong closedArrivals;
    private final Request page = new Request(PAGE);
    private final Request check = new Request(CHECK);
    private final Request hangup = new Request(HANGUP);
    /** The step sent and not yet answered; in the closed model also the step to send next (null: a new user). */
    private BrowserStep current;
    private Duration pause = Duration.ZERO;

    BrowserSession(UserAgenda agenda, UserRange users, AtomicLong closedArrivals) {
        this.agenda = agenda;
        this.users = users;
        this.closedArrivals = closedArrivals;
    }

    @Override
    public Request next() {
        if (agenda != null) {
            current = agenda.take();
        } else if (current == null) {
            current = new BrowserStep(0, BrowserStep.Kind.PAGE, new Visit(users.user(closedArrivals.getAndIncrement())));
        }
        Visit visit = current.visit();
        byte[] user = visit.user.id().getBytes(StandardCharsets.US_ASCII);
        Request r = switch (current.kind()) {
            case PAGE -> page.set(0, user);
            case CHECK -> check.set(0, user).set(1, visit.cookie);
            case HANGUP -> hangup.set(0, user).set(1, visit.cookie);
        };
        r.thinkTime(pause);
        pause = Duration.ZERO;
        return r;
    }

    @Override
    public Verdict check(Request request, ResponseView response, boolean deep) {
        BrowserStep step = current;
        Visit visit = step.visit();
        current = null;
        String what = step.kind().name().toLowerCase() + " of " + visit.user.id();
        if (response.status() == 503 && step.kind() == BrowserStep.Kind.CHECK) {
            // said apart from the other statuses in errors.txt: the server was full (admission), not broken
            return Verdict.fail(ErrorKind.HTTP_STATUS, what + ": HTTP 503, refused at the door (server full, Retry-After: "
                    + String.join(",", response.headers("Retry-After")) + ")");
        }
        if (response.status() != 200) {
            return Verdict.fail(ErrorKind.HTTP_STATUS, what + ": HTTP " + response.status());
        }
        byte[] renewed = sessionCookie(response);
        if (renewed != null) {
            // as a browser does: a session that moved to another instance (a fail-over) comes with a new cookie
            visit.cookie = renewed;
        }
        switch (step.kind()) {
            case PAGE -> {
                String marked = response.textBetween(VoicemailPages.USER_MARKER.getBytes(StandardCharsets.US_ASCII),
                        new byte[]{'"'}, 0);
                if (!visit.user.id().equals(marked)) {
                    return Verdict.fail(ErrorKind.VALIDATION, what + ": the page is for " + marked);
                }
                if (renewed == null) {
                    return Verdict.fail(ErrorKind.VALIDATION, what + ": no " + VoicemailPages.SESSION_COOKIE + " cookie");
                }
                next(new BrowserStep(System.nanoTime(), BrowserStep.Kind.CHECK, visit));
            }
            case CHECK -> {
                if (response.indexOf(CALL_UP, 0) < 0) {
                    return Verdict.fail(ErrorKind.VALIDATION, what + ": the call is not up: " + response.bodyText());
                }
                long holdNanos = visit.user.holdMs() * 1_000_000;
                if (visit.user.webHangup()) {
                    next(new BrowserStep(System.nanoTime() + holdNanos, BrowserStep.Kind.HANGUP, visit));
                } else if (agenda == null) {
                    pause = Duration.ofNanos(holdNanos); // the phone hangs up: this client's user is in the call till then
                }
            }
            case HANGUP -> {
                if (response.indexOf(CALL_DOWN, 0) < 0) {
                    return Verdict.fail(ErrorKind.VALIDATION, what + ": the call is not down: " + response.bodyText());
                }
            }
        }
        return Verdict.OK;
    }

    /** The user's next step: into the agenda, or (closed model) this client's next request after its pause. */
    private void next(BrowserStep step) {
        if (agenda != null) {
            agenda.schedule(step);
        } else {
            pause = Duration.ofNanos(Math.max(0, step.dueNanos() - System.nanoTime()));
            current = step;
        }
    }

    @Override
    public void failed(Request request, ErrorKind kind) {
        current = null; // the user gives up; the server ends what it set up by itself
    }

    private static byte[] sessionCookie(ResponseView response) {
        for (String set : response.headers("Set-Cookie")) {
            if (set.startsWith(COOKIE_PREFIX)) {
                int end = set.indexOf(';');
                return (end < 0 ? set : set.substring(0, end)).getBytes(StandardCharsets.US_ASCII);
            }
        }
        return null;
    }
}
