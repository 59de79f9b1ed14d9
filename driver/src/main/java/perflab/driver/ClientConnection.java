package perflab.driver;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import perflab.core.traffic.ClientSession;
import perflab.core.traffic.ErrorKind;
import perflab.core.traffic.Request;
import perflab.core.traffic.Verdict;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * One client: a small state machine over its current connection (disconnected, connecting, idle, busy with
 * one outstanding request). It outlives its connections: after a close, a failure or the connection policy's
 * last request it connects again. It is the only handler of its channel's pipeline and reads raw bytes,
 * framing responses with {@link ResponseParser}; events from an old channel are ignored.
 */
@ChannelHandler.Sharable
final class ClientConnection extends ChannelInboundHandlerAdapter implements ChannelFutureListener {
    private static final int DISCONNECTED = 0;
    private static final int CONNECTING = 1;
    private static final int IDLE = 2;
    private static final int BUSY = 3;
    private static final int CLOSED = 4;

    /** Reconnect backoff after a failed connect or a connection that died before any response: no spinning. */
    static final long MIN_BACKOFF_NANOS = 10_000_000;
    static final long MAX_BACKOFF_NANOS = 500_000_000;

    private final DriverLoop loop;
    private final MeasurementWindow window;
    private final LoopStats stats;
    private final ClientSession session;
    private final ConnectionPolicy policy;
    private final double deepCheckRatio;
    private final SplittableRandom deepSampler;
    private final boolean openModel;
    private final ResponseParser parser = new ResponseParser();
    private final Runnable connectTask = this::connect;
    private final Runnable thinkDone = this::afterThink;
    private Bootstrap bootstrap;

    private Channel channel;
    private int state = DISCONNECTED;
    private Request request;
    private EncodedRequest encoded;
    private boolean closeAfterThis;
    private long intendedNanos;
    private long sendNanos;
    private long connectStartNanos;
    private int requestsOnConnection;
    private int completedOnConnection;
    private long backoffNanos = MIN_BACKOFF_NANOS;
    private boolean thinkPending;
    private ByteBuf cumulation;

    /** Used by the load models. */
    long lastCompletionNanos;
    long freeSinceNanos;
    boolean inFreeQueue;

    ClientConnection(DriverLoop loop, ClientSession session, ConnectionPolicy policy, double deepCheckRatio,
                     long deepSeed, boolean openModel) {
        this.loop = loop;
        this.window = loop.window;
        this.stats = loop.stats;
        this.session = session;
        this.policy = policy;
        this.deepCheckRatio = deepCheckRatio;
        this.deepSampler = new SplittableRandom(deepSeed);
        this.openModel = openModel;
    }

    void bootstrap(Bootstrap bootstrap) {
        this.bootstrap = bootstrap;
    }

    boolean idle() {
        return state == IDLE;
    }

    boolean busy() {
        return state == BUSY;
    }

    long connectStartNanos() {
        return connectStartNanos;
    }

    // --- connection lifecycle ---

    void connect() {
        if (state == CLOSED || !window.sending()) {
            return;
        }
        state = CONNECTING;
        connectStartNanos = System.nanoTime();
        ChannelFuture f = bootstrap.connect();
        channel = f.channel();
        f.addListener(this);
    }

    @Override
    public void operationComplete(ChannelFuture f) {
        if (f.channel() != channel || state != CONNECTING) {
            return; // an attempt we have given up on
        }
        long now = System.nanoTime();
        if (f.isSuccess()) {
            state = IDLE;
            requestsOnConnection = 0;
            completedOnConnection = 0;
            stats.connectionOpened(window.phase());
            loop.model.clientReady(this, now);
        } else {
            channel = null;
            state = DISCONNECTED;
            if (window.sending()) {
                loop.model.connectFailed(this, now, window.wantsErrorSamples() ? describe(f.cause()) : null);
                reconnect(true);
            }
        }
    }

    private void reconnect(boolean backoff) {
        if (state == CLOSED || !window.sending()) {
            return;
        }
        if (backoff) {
            loop.eventLoop.schedule(connectTask, backoffNanos, TimeUnit.NANOSECONDS);
            backoffNanos = Math.min(backoffNanos * 2, MAX_BACKOFF_NANOS);
        } else {
            connect();
        }
    }

    private void closeAndReconnect(boolean backoff) {
        Channel ch = channel;
        channel = null;
        if (state != CLOSED) {
            state = DISCONNECTED;
        }
        releaseCumulation();
        if (ch != null) {
            ch.close();
        }
        reconnect(backoff);
    }

    /** Closes the connection for good (end of run). */
    void shutdown() {
        state = CLOSED;
        releaseCumulation();
        if (channel != null) {
            channel.close();
            channel = null;
        }
    }

    // --- sending ---

    /**
     * Sends the session's next request. {@code intendedNanos}: when it should have been sent (open model);
     * {@code freeSinceNanos}: since when this connection was free, so lag measures only the driver's delay.
     */
    void send(long intended, long freeSince) {
        if (state != IDLE) {
            return;
        }
        Request r = session.next();
        EncodedRequest e = loop.encoded.get(r.template());
        boolean close = policy.lastOnConnection(requestsOnConnection + 1L);
        ByteBuf out = channel.alloc().ioBuffer(e.sizeFor(r));
        int bytes = e.write(out, r, close);
        request = r;
        encoded = e;
        closeAfterThis = close;
        requestsOnConnection++;
        parser.reset(e.head);
        state = BUSY;
        long now = System.nanoTime();
        sendNanos = now;
        int phase = window.phase();
        if (openModel) {
            intendedNanos = intended;
            stats.lag(phase, now - Math.max(intended, freeSince));
        } else {
            intendedNanos = now;
        }
        stats.sent(phase, bytes);
        channel.writeAndFlush(out, channel.voidPromise());
    }

    /** Closed model think time: send once it has passed. */
    void sendAfter(long delayNanos) {
        if (!thinkPending) {
            thinkPending = true;
            loop.eventLoop.schedule(thinkDone, delayNanos, TimeUnit.NANOSECONDS);
        }
    }

    private void afterThink() {
        thinkPending = false;
        if (state == IDLE && window.sending()) {
            long now = System.nanoTime();
            send(now, now);
        }
    }

    // --- receiving ---

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf in = (ByteBuf) msg;
        if (ctx.channel() != channel) {
            in.release();
            return;
        }
        stats.received(window.phase(), in.readableBytes());
        if (state != BUSY) {
            // Bytes nobody asked for: the connection's framing cannot be trusted any more.
            in.release();
            closeAndReconnect(false);
            return;
        }
        ByteBuf data = cumulation == null ? in : append(ctx, in);
        int r = parser.parse(data);
        if (r == ResponseParser.NEED_MORE) {
            if (cumulation == null) {
                // Only a response split over reads is copied; the usual one-read response is checked in place.
                cumulation = ctx.alloc().heapBuffer(Math.max(4096, in.readableBytes() * 2));
                cumulation.writeBytes(in);
                in.release();
            }
            return;
        }
        if (r == ResponseParser.ERROR) {
            data.release();
            cumulation = null;
            fail(ErrorKind.IO, "unparseable response: " + parser.error());
            closeAndReconnect(false);
            return;
        }
        boolean leftover = data.readableBytes() > parser.length();
        long now = System.nanoTime();
        complete(now);
        data.release();
        cumulation = null;
        afterResponse(now, leftover);
    }

    private void afterResponse(long now, boolean leftover) {
        if (closeAfterThis || parser.closeAfter() || leftover) {
            closeAndReconnect(false);
        } else {
            loop.model.clientReady(this, now);
        }
    }

    private ByteBuf append(ChannelHandlerContext ctx, ByteBuf in) {
        ByteBuf cum = cumulation;
        if (cum.writableBytes() < in.readableBytes()) {
            ByteBuf bigger = ctx.alloc().heapBuffer(Math.max(cum.capacity() * 2, cum.readableBytes() + in.readableBytes()));
            bigger.writeBytes(cum);
            cum.release();
            cum = bigger;
        }
        cum.writeBytes(in);
        in.release();
        cumulation = cum;
        return cum;
    }

    private void complete(long now) {
        int phase = window.completionPhase();
        boolean deep = phase == MeasurementWindow.WARMUP || (phase == MeasurementWindow.MEASURE && deepCheckRatio > 0
                && (deepCheckRatio >= 1 || deepSampler.nextDouble() < deepCheckRatio));
        Verdict verdict;
        try {
            verdict = session.check(request, parser, deep);
        } catch (RuntimeException e) {
            verdict = Verdict.fail(ErrorKind.VALIDATION, "the traffic's check failed: " + e);
        }
        if (verdict.ok()) {
            stats.success(phase, now - intendedNanos, now - sendNanos);
            if (phase == MeasurementWindow.MEASURE) {
                encoded.measuredSuccesses++;
            }
            backoffNanos = MIN_BACKOFF_NANOS;
        } else {
            stats.failure(phase, verdict.kind(), now - intendedNanos);
            if (window.wantsErrorSamples()) {
                window.sampleError(phase, verdict.kind(), verdict.message() + " (" + request.template().kind()
                        + " id " + request.id() + ", HTTP " + parser.status() + ")");
            }
        }
        completedOnConnection++;
        request = null;
        encoded = null;
        state = IDLE;
        lastCompletionNanos = now;
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (ctx.channel() != channel) {
            return;
        }
        channel = null;
        if (state == BUSY) {
            if (parser.readsUntilClose() && cumulation != null && parser.finishOnClose(cumulation) == ResponseParser.COMPLETE) {
                long now = System.nanoTime();
                complete(now);
                releaseCumulation();
                state = DISCONNECTED;
                reconnect(false);
                return;
            }
            fail(ErrorKind.IO, "the server closed the connection before the response was complete");
        }
        closeAndReconnect(completedOnConnection == 0);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (ctx.channel() != channel) {
            ctx.close();
            return;
        }
        if (state == BUSY) {
            fail(ErrorKind.IO, window.wantsErrorSamples() ? describe(cause) : null);
        }
        closeAndReconnect(completedOnConnection == 0);
    }

    void checkTimeout(long now) {
        if (state == BUSY && now - sendNanos >= loop.timeoutNanos) {
            // The connection may be stuck: its late response must not be read as the next one's.
            fail(ErrorKind.TIMEOUT, loop.timeoutMessage);
            closeAndReconnect(false);
        }
    }

    // --- failures ---

    /** The outstanding request failed without a (valid) response. */
    private void fail(ErrorKind kind, String message) {
        long now = System.nanoTime();
        int phase = window.completionPhase();
        stats.failure(phase, kind, now - intendedNanos);
        if (message != null) {
            window.sampleError(phase, kind, message);
        }
        Request r = request;
        request = null;
        encoded = null;
        state = DISCONNECTED;
        session.failed(r, kind);
    }

    /** A request that could not even be sent (no connection): taken from the session and failed at once. */
    void failUnsent(ErrorKind kind, long intended, String message) {
        Request r = session.next();
        long now = System.nanoTime();
        int phase = window.completionPhase();
        stats.failure(phase, kind, now - intended);
        if (message != null) {
            window.sampleError(phase, kind, message);
        }
        session.failed(r, kind);
    }

    private void releaseCumulation() {
        if (cumulation != null) {
            cumulation.release();
            cumulation = null;
        }
    }

    private static String describe(Throwable cause) {
        if (cause == null) {
            return "unknown cause";
        }
        String m = cause.getMessage();
        return cause.getClass().getSimpleName() + (m == null ? "" : ": " + m);
    }
}
