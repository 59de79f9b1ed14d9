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

import java.util.concurrent.TimeUnit;

/**
 * One HTTP/1.1 client: a small state machine over its current connection (disconnected, connecting, idle,
 * busy with one outstanding request). It outlives its connections: after a close, a failure or the
 * connection policy's last request it connects again. It is the only handler of its channel's pipeline and
 * reads raw bytes, framing responses with {@link ResponseParser}; events from an old channel are ignored.
 * What happens to a response once framed is {@link Client}'s, shared with h2c.
 */
final class ClientConnection extends Client implements DriverConnection, ChannelFutureListener {
    private static final int DISCONNECTED = 0;
    private static final int CONNECTING = 1;
    private static final int IDLE = 2;
    private static final int BUSY = 3;
    private static final int CLOSED = 4;

    /** Reconnect backoff after a failed connect or a connection that died before any response: no spinning. */
    static final long MIN_BACKOFF_NANOS = 10_000_000;
    static final long MAX_BACKOFF_NANOS = 500_000_000;

    private final ConnectionPolicy policy;
    private final ResponseParser parser = new ResponseParser();
    private final Runnable connectTask = this::connect;
    private final ChannelHandler handler = new Handler();
    private Bootstrap bootstrap;

    private Channel channel;
    private int state = DISCONNECTED;
    private boolean closeAfterThis;
    private long connectStartNanos;
    private int requestsOnConnection;
    private int completedOnConnection;
    private long backoffNanos = MIN_BACKOFF_NANOS;
    private ByteBuf cumulation;

    ClientConnection(DriverLoop loop, ClientSession session, ConnectionPolicy policy, double deepCheckRatio,
                     long deepSeed, boolean openModel) {
        super(loop, session, deepCheckRatio, deepSeed, openModel);
        this.policy = policy;
    }

    /** The handler of this client's channels (the only one in their pipelines). */
    ChannelHandler handler() {
        return handler;
    }

    void bootstrap(Bootstrap bootstrap) {
        this.bootstrap = bootstrap;
    }

    @Override
    boolean idle() {
        return state == IDLE;
    }

    @Override
    boolean busy() {
        return state == BUSY;
    }

    @Override
    long connectStartNanos() {
        return connectStartNanos;
    }

    // --- connection lifecycle ---

    @Override
    public void connect() {
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

    @Override
    public void shutdown() {
        state = CLOSED;
        releaseCumulation();
        if (channel != null) {
            channel.close();
            channel = null;
        }
    }

    // --- sending ---

    @Override
    void send(long intended, long freeSince) {
        if (state != IDLE) {
            return;
        }
        Request r = begin(intended);
        EncodedRequest e = encoded;
        boolean close = policy.lastOnConnection(requestsOnConnection + 1L);
        ByteBuf out = channel.alloc().ioBuffer(e.sizeFor(r));
        int bytes = e.write(out, r, close);
        closeAfterThis = close;
        requestsOnConnection++;
        parser.reset(e.head);
        state = BUSY;
        sent(System.nanoTime(), freeSince, bytes);
        channel.writeAndFlush(out, channel.voidPromise());
    }

    // --- receiving ---

    private void channelRead(ChannelHandlerContext ctx, Object msg) {
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
        if (complete(now, parser)) {
            backoffNanos = MIN_BACKOFF_NANOS;
        }
        completedOnConnection++;
        state = IDLE;
    }

    private void channelInactive(ChannelHandlerContext ctx) {
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
            failRequest(ErrorKind.IO, "the server closed the connection before the response was complete");
        }
        closeAndReconnect(completedOnConnection == 0);
    }

    private void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (ctx.channel() != channel) {
            ctx.close();
            return;
        }
        if (state == BUSY) {
            failRequest(ErrorKind.IO, window.wantsErrorSamples() ? describe(cause) : null);
        }
        closeAndReconnect(completedOnConnection == 0);
    }

    @Override
    public void checkTimeouts(long now) {
        if (state == BUSY && now - sendNanos >= loop.timeoutNanos) {
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
