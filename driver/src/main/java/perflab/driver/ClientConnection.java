package perflab.driver;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import perflab.core.traffic.ClientSession;
import perflab.core.traffic.ErrorKind;

/**
 * One HTTP/1.1 client: a small state machine over its current connection (disconnected, connecting, idle,
 * busy with one outstanding request). It outlives its connections: after a close, a failure or the
 * connection policy's last request it connects again (its {@link Reconnector}, as h2c's). It is the only
 * handler of its channel's pipeline and reads raw bytes, framing responses with {@link ResponseParser}; events
 * from an old channel are ignored.
 * What happens to a response once framed is {@link Client}'s, shared with h2c.
 *
 * <p>An idempotent request whose kept-alive connection closes (or resets) before a byte of its answer is sent once
 * more on a new connection, as browsers and most HTTP clients do (RFC 9112 9.3.1): the server may have closed an idle
 * connection as the request went out, or a proxy (haproxy) closed the client's connection because the server behind
 * it died, leaving the retry to the client. It keeps its intended time, so its latency includes the lost attempt,
 * and is counted ({@code driver.resent}). A request on a fresh connection, or one partly answered, fails as before.
 */
final class ClientConnection extends Client implements DriverConnection, Reconnector.Owner {
    private static final int DISCONNECTED = 0;
    private static final int CONNECTING = 1;
    private static final int IDLE = 2;
    private static final int BUSY = 3;
    private static final int CLOSED = 4;

    private final Reconnector reconnector;
    private final ResponseParser parser = new ResponseParser();
    private final ChannelHandler handler = new Handler();

    private int state = DISCONNECTED;
    private boolean closeAfterThis;
    /** A byte of the outstanding request's answer has arrived. */
    private boolean answering;
    /** The outstanding request is a resend: it is not sent a third time. */
    private boolean resending;
    /** The outstanding request waits for the next connection to go out again. */
    private boolean resendPending;
    /** When the outstanding request first went out: its timeout runs from there, across a resend. */
    private long firstSentNanos;
    private ByteBuf cumulation;

    ClientConnection(DriverLoop loop, ClientSession session, ConnectionPolicy policy, double deepCheckRatio,
                     long deepSeed, boolean openModel) {
        super(loop, session, deepCheckRatio, deepSeed, openModel);
        this.reconnector = new Reconnector(loop, policy, this);
    }

    /** The handler of this client's channels (the only one in their pipelines). */
    ChannelHandler handler() {
        return handler;
    }

    void bootstrap(Bootstrap bootstrap) {
        reconnector.bootstrap(bootstrap);
    }

    @Override
    boolean idle() {
        return state == IDLE;
    }

    @Override
    boolean busy() {
        return state == BUSY || resendPending; // one waiting to go out again is still outstanding (the drain waits for it)
    }

    @Override
    long connectStartNanos() {
        return reconnector.connectStartNanos();
    }

    // --- connection lifecycle ---

    @Override
    public void connect() {
        if (!reconnector.mayConnect()) {
            return;
        }
        state = CONNECTING;
        reconnector.dial();
    }

    @Override
    public void connected() {
        state = IDLE;
        stats.connectionOpened(window.phase());
        if (resendPending) {
            resendPending = false;
            if (window.sending()) {
                resend();
                return;
            }
        }
        loop.model.clientReady(this, System.nanoTime());
    }

    @Override
    public void connectFailed(String message) {
        state = DISCONNECTED;
        if (resendPending) {
            // the request the closed connection left: its resend found no server either
            resendPending = false;
            fail(ErrorKind.IO, message == null ? null : "resent after its connection closed unanswered, it could "
                    + "not connect again: " + message);
            return; // the reconnection that follows asks the load model for work again
        }
        if (window.sending()) {
            loop.model.connectFailed(this, System.nanoTime(), message);
        }
    }

    private void closeAndReconnect(boolean backoff) {
        Channel ch = reconnector.leave();
        if (state != CLOSED) {
            state = DISCONNECTED;
        }
        releaseCumulation();
        if (ch != null) {
            ch.close();
        }
        reconnector.reconnect(backoff);
    }

    @Override
    public void shutdown() {
        state = CLOSED;
        resendPending = false;
        releaseCumulation();
        reconnector.shutdown();
    }

    // --- sending ---

    @Override
    void send(long intended, long freeSince) {
        if (state != IDLE) {
            return;
        }
        begin(intended);
        resending = false;
        ByteBuf out = encodeOutstanding();
        sent(System.nanoTime(), freeSince, out.readableBytes());
        firstSentNanos = sendNanos;
        reconnector.channel().writeAndFlush(out, reconnector.channel().voidPromise());
    }

    /** The outstanding request once more, on the new connection: its intended time kept, its service time anew. */
    private void resend() {
        resending = true;
        resent = true; // counted with its completion, in the phase that completion is counted in
        ByteBuf out = encodeOutstanding();
        sendNanos = System.nanoTime();
        stats.sent(window.phase(), out.readableBytes());
        reconnector.channel().writeAndFlush(out, reconnector.channel().voidPromise());
    }

    /** The outstanding request encoded for the current channel, which is now busy with it. */
    private ByteBuf encodeOutstanding() {
        boolean close = reconnector.startRequest();
        ByteBuf out = reconnector.channel().alloc().ioBuffer(encoded.sizeFor(request));
        encoded.write(out, request, close);
        closeAfterThis = close;
        parser.reset(encoded.head);
        state = BUSY;
        answering = false;
        return out;
    }

    /**
     * Whether the outstanding request, its connection gone, goes out again: idempotent, not yet resent, nothing of
     * its answer read, and its connection had answered an earlier request (a fresh connection that fails says
     * something about the server, not about a close racing the request), while the window still sends.
     */
    private boolean mayResend() {
        return encoded != null && encoded.idempotent && !resending && !answering && !reconnector.unanswered()
                && window.sending();
    }

    /** The outstanding request's connection closed unanswered: it waits for the next connection, made at once. */
    private void resendOnNewConnection() {
        resendPending = true;
        state = DISCONNECTED;
        closeAndReconnect(false);
        if (state == DISCONNECTED && resendPending) {
            // no new connection was begun (the run stopped sending meanwhile): it fails now, not never
            resendPending = false;
            failRequest(ErrorKind.IO, "the server closed the connection before the response was complete");
        }
    }

    // --- receiving ---

    private void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf in = (ByteBuf) msg;
        if (ctx.channel() != reconnector.channel()) {
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
        answering = true;
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
            failRequest(ErrorKind.IO, "unparseable response: " + parser.error());
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
        reconnector.responded(complete(now, parser));
        state = IDLE;
    }

    private void channelInactive(ChannelHandlerContext ctx) {
        if (ctx.channel() != reconnector.channel()) {
            return;
        }
        reconnector.leave();
        if (state == BUSY) {
            if (parser.readsUntilClose() && cumulation != null && parser.finishOnClose(cumulation) == ResponseParser.COMPLETE) {
                long now = System.nanoTime();
                complete(now);
                releaseCumulation();
                state = DISCONNECTED;
                reconnector.reconnect(false);
                return;
            }
            if (mayResend()) {
                resendOnNewConnection();
                return;
            }
            failRequest(ErrorKind.IO, "the server closed the connection before the response was complete");
        }
        closeAndReconnect(reconnector.unanswered());
    }

    private void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (ctx.channel() != reconnector.channel()) {
            ctx.close();
            return;
        }
        if (state == BUSY) {
            if (mayResend()) {
                resendOnNewConnection();
                return;
            }
            failRequest(ErrorKind.IO, window.wantsErrorSamples() ? describe(cause) : null);
        }
        closeAndReconnect(reconnector.unanswered());
    }

    @Override
    public void checkTimeouts(long now) {
        if (resendPending && now - firstSentNanos >= loop.timeoutNanos) {
            // its resend still waits for a connection: the request's time is up all the same (the connection, once
            // made, serves the next request)
            resendPending = false;
            fail(ErrorKind.TIMEOUT, loop.timeoutMessage);
            return;
        }
        if (state == BUSY && now - firstSentNanos >= loop.timeoutNanos) {
            // The connection may be stuck: its late response must not be read as the next one's.
            failRequest(ErrorKind.TIMEOUT, loop.timeoutMessage);
            closeAndReconnect(false);
        }
    }

    // --- failures ---

    /** The outstanding request failed without a (valid) response: the connection is left. */
    private void failRequest(ErrorKind kind, String message) {
        fail(kind, message);
        state = DISCONNECTED;
    }

    /** Netty's view of this client: events for its channels, passed on. */
    @ChannelHandler.Sharable
    private final class Handler extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ClientConnection.this.channelRead(ctx, msg);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            ClientConnection.this.channelInactive(ctx);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ClientConnection.this.exceptionCaught(ctx, cause);
        }
    }

    private void releaseCumulation() {
        if (cumulation != null) {
            cumulation.release();
            cumulation = null;
        }
    }

}
