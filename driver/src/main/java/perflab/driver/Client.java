package perflab.driver;

import perflab.core.traffic.ClientSession;
import perflab.core.traffic.ErrorKind;
import perflab.core.traffic.Request;
import perflab.core.traffic.ResponseView;
import perflab.core.traffic.Verdict;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * One client: a traffic session with at most one outstanding request. What happens to a request once it has
 * an answer or has failed (its phase, the deep-check sample, the traffic's verdict, the statistics) is the
 * same for every protocol and lives here; how it is sent and framed is the protocol's:
 * {@link ClientConnection} (HTTP/1.1, the client is its connection) and {@link H2Client} (h2c, the client is
 * one stream at a time on a shared {@link H2Connection}). Used on its event loop's thread only.
 */
abstract class Client {
    final DriverLoop loop;
    final MeasurementWindow window;
    final LoopStats stats;
    final ClientSession session;
    private final double deepCheckRatio;
    private final SplittableRandom deepSampler;
    final boolean openModel;
    private final Runnable thinkDone = this::afterThink;
    private boolean thinkPending;

    /** The outstanding request and its times; null/0 when none. */
    Request request;
    EncodedRequest encoded;
    long intendedNanos;
    long sendNanos;
    /** The outstanding request was sent again (HTTP/1.1: its kept-alive connection closed unanswered). */
    boolean resent;

    /** Used by the load models. */
    long lastCompletionNanos;
    /** Closed model: the last request's own think time, or {@link Request#RUN_THINK_TIME}. */
    long thinkNanos = Request.RUN_THINK_TIME;
    long freeSinceNanos;
    boolean inFreeQueue;

    Client(DriverLoop loop, ClientSession session, double deepCheckRatio, long deepSeed, boolean openModel) {
        this.loop = loop;
        this.window = loop.window;
        this.stats = loop.stats;
        this.session = session;
        this.deepCheckRatio = deepCheckRatio;
        this.deepSampler = new SplittableRandom(deepSeed);
        this.openModel = openModel;
    }

    /** Connected, allowed to start a request, and without one outstanding. */
    abstract boolean idle();

    /** A request is outstanding (sent or about to be). */
    abstract boolean busy();

    /** When the current connection attempt started (closed model: a failed connect is timed from it). */
    abstract long connectStartNanos();

    /**
     * Sends the session's next request. {@code intendedNanos}: when it should have been sent (open model);
     * {@code freeSinceNanos}: since when this client was free, so lag measures only the driver's delay.
     */
    abstract void send(long intendedNanos, long freeSinceNanos);

    /** Takes the session's next request as the outstanding one; the protocol then writes it. */
    final Request begin(long intended) {
        Request r = session.next();
        request = r;
        encoded = loop.encoded.get(r.template());
        intendedNanos = intended;
        return r;
    }

    /** The outstanding request was written at {@code now}: lag (open model) and bytes. */
    final void sent(long now, long freeSince, int bytes) {
        sendNanos = now;
        int phase = window.phase();
        if (openModel) {
            stats.lag(phase, now - Math.max(intendedNanos, freeSince));
        } else {
            intendedNanos = now;
        }
        if (bytes > 0) {
            stats.sent(phase, bytes);
        }
    }

    /** Closed model think time: send once it has passed. */
    final void sendAfter(long delayNanos) {
        if (!thinkPending) {
            thinkPending = true;
            loop.eventLoop.schedule(thinkDone, delayNanos, TimeUnit.NANOSECONDS);
        }
    }

    private void afterThink() {
        thinkPending = false;
        if (idle() && window.sending()) {
            long now = System.nanoTime();
            send(now, now);
        }
    }

    /**
     * The outstanding request got a complete response: phase, deep-check sampling, the traffic's verdict and
     * the statistics. Clears the outstanding request; the caller decides what the client does next. Returns
     * whether the response passed the check.
     */
    final boolean complete(long now, ResponseView response) {
        int phase = window.completionPhase(intendedNanos);
        // the warm-up's first answers all, then the same sample in warm-up and window: the warm-up warms the path
        // the window measures (and the same code: no branch on the phase here, see LoopStats)
        boolean deep = phase != MeasurementWindow.DONE && (window.takeWarmupDeepCheck(phase)
                || deepCheckRatio > 0 && (deepCheckRatio >= 1 || deepSampler.nextDouble() < deepCheckRatio));
        Verdict verdict;
        try {
            verdict = session.check(request, response, deep);
        } catch (RuntimeException e) {
            verdict = Verdict.fail(ErrorKind.VALIDATION, "the traffic's check failed: " + e);
        }
        countResent(phase);
        if (verdict.ok()) {
            stats.success(phase, encoded.kind, now - intendedNanos, now - sendNanos);
        } else {
            stats.failure(phase, encoded.kind, verdict.kind(), now - intendedNanos);
            if (window.wantsErrorSamples()) {
                window.sampleError(phase, verdict.kind(), verdict.message() + " (" + request + ", HTTP "
                        + response.status() + ")");
            }
        }
        thinkNanos = request.thinkNanos();
        request = null;
        encoded = null;
        lastCompletionNanos = now;
        return verdict.ok();
    }

    /** The outstanding request failed without a (valid) response; clears it and tells the session. */
    final void fail(ErrorKind kind, String message) {
        long now = System.nanoTime();
        int phase = window.completionPhase(intendedNanos);
        countResent(phase);
        stats.failure(phase, encoded != null ? encoded.kind : loop.kinds.none(), kind, now - intendedNanos);
        if (message != null) {
            window.sampleError(phase, kind, message);
        }
        Request r = request;
        if (r != null) {
            thinkNanos = r.thinkNanos();
        }
        request = null;
        encoded = null;
        session.failed(r, kind);
    }

    /** A resend is counted with its request's completion, in that completion's phase, as the request is. */
    private void countResent(int phase) {
        if (resent) {
            resent = false;
            stats.resent(phase);
        }
    }

    /** A request that could not even be sent (no connection): taken from the session and failed at once. */
    final void failUnsent(ErrorKind kind, long intended, String message) {
        Request r = session.next();
        long now = System.nanoTime();
        int phase = window.completionPhase(intended);
        stats.failure(phase, loop.encoded.get(r.template()).kind, kind, now - intended);
        thinkNanos = r.thinkNanos();
        if (message != null) {
            window.sampleError(phase, kind, message);
        }
        session.failed(r, kind);
    }

    static String describe(Throwable cause) {
        if (cause == null) {
            return "unknown cause";
        }
        String m = cause.getMessage();
        return cause.getClass().getSimpleName() + (m == null ? "" : ": " + m);
    }
}
