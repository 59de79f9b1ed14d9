package perflab.driver;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http2.DefaultHttp2Connection;
import io.netty.handler.codec.http2.DefaultHttp2ConnectionDecoder;
import io.netty.handler.codec.http2.DefaultHttp2ConnectionEncoder;
import io.netty.handler.codec.http2.DefaultHttp2FrameReader;
import io.netty.handler.codec.http2.DefaultHttp2FrameWriter;
import io.netty.handler.codec.http2.DefaultHttp2RemoteFlowController;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2ConnectionAdapter;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.handler.codec.http2.UniformStreamByteDistributor;
import perflab.core.traffic.ErrorKind;
import perflab.core.traffic.Request;

import java.util.ArrayList;
import java.util.List;

/**
 * One h2c connection (HTTP/2 over cleartext, prior knowledge) and the clients that share it, each with at
 * most one stream in flight. It outlives its channels: after a close, a failure or the connection policy's
 * last stream it connects again (its {@link Reconnector}, as HTTP/1.1's).
 *
 * <p>Per channel: the client preface and SETTINGS (Netty's {@link Http2ConnectionHandler}), then nothing is
 * sent until the server's SETTINGS arrive, so that its stream limit is known; a server that closes or stays
 * silent instead fails like a refused connect ({@code connect}). Each request is one stream: HEADERS (the
 * template's header block, built once) and a DATA frame with the template's body and the id written in.
 * The response's HEADERS and DATA are read by {@link H2Frames}; a body in one DATA frame is checked in place,
 * one in several frames is aggregated for the client.
 *
 * <p>Failures: a stream the server resets (RST_STREAM) or drops (GOAWAY below it, or the connection closes)
 * fails as {@code io}. After a GOAWAY no new stream starts; the connection reconnects once its streams are
 * done. A stream without a complete response after the timeout fails as {@code timeout} and is reset
 * (RST_STREAM CANCEL), and its client goes on over the same connection: a slow answer to one request is no
 * reason to drop the others. The connection itself is judged stuck only when it is silent ({@link H2Liveness}):
 * if nothing at all (no frame of any stream) has been read on it for a whole timeout when a stream times out,
 * the driver sends a PING, and if nothing, not even the PING's answer, arrives within another timeout, every
 * stream in flight on it fails as {@code timeout} and the connection is closed and opened again.
 *
 * <p>Connection policy: {@code --keepalive N} means N streams per connection: after the N-th stream starts, no
 * new one does, and once the last response arrives a new connection is opened ({@code off} = one stream per
 * connection). A connection also retires after {@link #MAX_STREAMS_PER_CONNECTION} streams, before its
 * stream ids run out. If the server allows fewer concurrent streams than the connection has clients, only
 * that many of them have a request in flight at a time.
 */
final class H2Connection implements DriverConnection, Reconnector.Owner {
    private static final int DISCONNECTED = 0;
    private static final int CONNECTING = 1;
    private static final int HANDSHAKE = 2;
    private static final int READY = 3;
    private static final int DRAINING = 4;
    private static final int CLOSED = 5;

    /** Client stream ids are odd and below 2^31. */
    static final int MAX_STREAMS_PER_CONNECTION = (1 << 30) - 1;
    /** Receive windows: wide enough that flow control never paces the responses of S streams. */
    static final int STREAM_WINDOW = 1 << 20;
    static final int CONNECTION_WINDOW = 16 << 20;
    private static final String SESSION = "h2c";

    private final DriverLoop loop;
    private final MeasurementWindow window;
    private final LoopStats stats;
    private final Reconnector reconnector;
    private final H2Liveness liveness;
    private final List<H2Client> clients = new ArrayList<>();
    private final H2Response response = new H2Response();
    private final Runnable drainedTask = this::closeIfDrained;
    private final ChannelHandler sentBytes = new SentBytes();
    private final ChannelHandler initializer = new ChannelInitializer<Channel>() {
        @Override
        protected void initChannel(Channel ch) {
            ch.pipeline().addLast(sentBytes).addLast(SESSION, newSession());
        }
    };
    private final String handshakeTimeoutMessage;

    private Session session;
    private int state = DISCONNECTED;
    private int inFlight;
    private int rotation;
    /** Why the current channel is going away (GOAWAY, a protocol error), for the error samples. */
    private String closeReason;

    H2Connection(DriverLoop loop, ConnectionPolicy policy) {
        this.loop = loop;
        this.window = loop.window;
        this.stats = loop.stats;
        this.reconnector = new Reconnector(loop, policy, this);
        this.liveness = new H2Liveness(loop.timeoutNanos);
        this.handshakeTimeoutMessage = "no HTTP/2 SETTINGS from the server within " + loop.timeoutNanos / 1_000_000
                + " ms of connecting (does it speak h2c with prior knowledge?)";
    }

    void add(H2Client client) {
        clients.add(client);
    }

    /** The initializer of this connection's channels. */
    ChannelHandler initializer() {
        return initializer;
    }

    void bootstrap(Bootstrap bootstrap) {
        reconnector.bootstrap(bootstrap);
    }

    long connectStartNanos() {
        return reconnector.connectStartNanos();
    }

    boolean canStartStream() {
        return state == READY && session.connection().local().canOpenStream();
    }

    // --- connection lifecycle ---

    @Override
    public void connect() {
        if (!reconnector.mayConnect()) {
            return;
        }
        state = CONNECTING;
        session = null;
        closeReason = null;
        reconnector.dial();
    }

    @Override
    public void connected() {
        state = HANDSHAKE;
        session = (Session) reconnector.channel().pipeline().get(SESSION);
        inFlight = 0;
        liveness.connected(System.nanoTime());
    }

    /** A SETTINGS frame from the server on {@code s}: the first one makes the connection ready. */
    void settingsRead(Session s) {
        if (s.current() && state == HANDSHAKE) {
            ready();
        }
    }

    /** The server's first SETTINGS: streams may start. */
    private void ready() {
        state = READY;
        stats.connectionOpened(window.phase());
        long now = System.nanoTime();
        int n = clients.size();
        int first = Math.floorMod(rotation++, n); // keepalive off with S > 1: every client gets its turn at the one stream
        for (int k = 0; k < n && state == READY; k++) {
            H2Client c = clients.get((first + k) % n);
            if (c.idle()) {
                loop.model.clientReady(c, now);
            }
        }
    }

    /**
     * The connection could not be opened (refused, or no SETTINGS): every client fails the request it would have
     * sent (per the load model).
     */
    @Override
    public void connectFailed(String message) {
        state = DISCONNECTED;
        if (!window.sending()) {
            return;
        }
        long now = System.nanoTime();
        for (int i = 0; i < clients.size(); i++) {
            loop.model.connectFailed(clients.get(i), now, message);
        }
    }

    /** Leaves the current channel: what is in flight fails with {@code kind}; then connects again. */
    private void closeAndReconnect(boolean backoff, ErrorKind kind, String message) {
        Channel ch = reconnector.leave();
        session = null;
        if (state != CLOSED) {
            state = DISCONNECTED;
        }
        failInFlight(kind, message);
        if (ch != null) {
            ch.close();
        }
        reconnector.reconnect(backoff);
    }

    private void failInFlight(ErrorKind kind, String message) {
        for (int i = 0; i < clients.size(); i++) {
            H2Client c = clients.get(i);
            c.stream = null;
            if (c.request != null) {
                c.fail(kind, message);
            }
            c.clearResponse();
        }
        inFlight = 0;
    }

    private void closeIfDrained() {
        if (state == DRAINING && inFlight == 0) {
            closeAndReconnect(false, ErrorKind.IO, null);
        }
    }

    /** The current channel closed under us. */
    private void channelClosed(int stateBefore) {
        reconnector.leave();
        session = null;
        if (stateBefore == HANDSHAKE) {
            connectFailed(window.wantsErrorSamples() ? "the server closed the connection before its HTTP/2 SETTINGS"
                    + (closeReason == null ? "" : " (" + closeReason + ")") + "; does it speak h2c with prior knowledge?" : null);
            reconnector.reconnect(true);
            return;
        }
        failInFlight(ErrorKind.IO, closeMessage());
        reconnector.reconnect(reconnector.unanswered());
    }

    private String closeMessage() {
        if (!window.wantsErrorSamples()) {
            return null;
        }
        return closeReason != null ? closeReason : "the connection closed before the response was complete";
    }

    @Override
    public void shutdown() {
        state = CLOSED;
        for (int i = 0; i < clients.size(); i++) {
            clients.get(i).clearResponse();
        }
        reconnector.shutdown();
        session = null;
    }

    // --- streams ---

    /** Starts the client's request (already taken from its session) as a new stream. */
    void startStream(H2Client client, long freeSince) {
        Session s = session;
        ChannelHandlerContext ctx = s.ctx;
        Request r = client.request;
        EncodedRequest e = client.encoded;
        int id = s.connection().local().incrementAndGetNextStreamId();
        int bodyLength = e.bodyLength(r);
        s.encoder().writeHeaders(ctx, id, e.h2Headers(r), 0, bodyLength == 0, ctx.newPromise());
        Http2Stream stream = s.connection().stream(id);
        if (stream == null) {
            // The encoder refused the stream (it reported why through the pipeline): the connection is unusable.
            closeAndReconnect(true, ErrorKind.IO, window.wantsErrorSamples() ? "could not open HTTP/2 stream " + id
                    + (closeReason == null ? "" : ": " + closeReason) : null);
            return;
        }
        stream.setProperty(s.clientKey, client);
        client.stream = stream;
        inFlight++;
        if (bodyLength > 0) {
            ByteBuf data = ctx.alloc().ioBuffer(bodyLength);
            e.writeBody(data, r);
            s.encoder().writeData(ctx, id, data, 0, true, ctx.newPromise());
        }
        client.sent(System.nanoTime(), freeSince, 0); // bytes are counted on the wire by SentBytes
        if (reconnector.startRequest() || reconnector.requests() >= MAX_STREAMS_PER_CONNECTION) {
            state = DRAINING;
        }
        s.flushSoon();
    }

    /** The stream's response is complete: the check and the statistics (the stream closes right after). */
    void finish(H2Client c, ByteBuf body) {
        long now = System.nanoTime();
        boolean ok = c.complete(now, response.set(c.responseHeaders, c.status, body));
        response.clear();
        c.clearResponse();
        reconnector.responded(ok);
    }

    /** The client's stream is closed, answered or not: the client goes on, or the connection retires. */
    private void streamClosed(H2Client c) {
        c.stream = null;
        inFlight--;
        if (c.request != null) {
            c.fail(ErrorKind.IO, !window.wantsErrorSamples() ? null
                    : closeReason != null ? closeReason : "the stream closed before its response was complete");
        }
        c.clearResponse();
        if (state == READY) {
            loop.model.clientReady(c, System.nanoTime());
        } else if (state == DRAINING && inFlight == 0) {
            loop.eventLoop.execute(drainedTask); // not from inside the codec's stream bookkeeping
        }
    }

    @Override
    public void checkTimeouts(long now) {
        long timeout = loop.timeoutNanos;
        if (state == HANDSHAKE && now - reconnector.connectStartNanos() >= timeout) {
            Channel ch = reconnector.leave();
            session = null;
            state = DISCONNECTED;
            ch.close();
            connectFailed(window.wantsErrorSamples() ? handshakeTimeoutMessage : null);
            reconnector.reconnect(true);
            return;
        }
        if (state != READY && state != DRAINING) {
            return;
        }
        Session s = session;
        if (liveness.stuck(now)) {
            closeAndReconnect(false, ErrorKind.TIMEOUT, window.wantsErrorSamples() ? "the connection was closed as "
                    + "stuck: nothing received on it, not even the answer to a PING, for over " + timeout / 1_000_000
                    + " ms" : null);
            return;
        }
        boolean any = false;
        for (int i = 0; i < clients.size(); i++) {
            H2Client c = clients.get(i);
            if (c.stream != null && c.request != null && now - c.sendNanos >= timeout) {
                any = true;
                Http2Stream stream = c.stream;
                c.fail(ErrorKind.TIMEOUT, loop.timeoutMessage);
                c.clearResponse();
                // Closes the stream: streamClosed() sends the client's next request, on this connection.
                s.resetStream(s.ctx, stream.id(), Http2Error.CANCEL.code(), s.ctx.newPromise());
                if (session != s) {
                    return; // the reset closed the connection
                }
            }
        }
        if (any && liveness.pingDue(now)) {
            // Silent for a whole timeout: ask whether the connection is alive at all.
            s.encoder().writePing(s.ctx, false, now, s.ctx.newPromise());
        }
        if (any) {
            s.flush(s.ctx);
        }
    }

    private Session newSession() {
        Http2Connection connection = new DefaultHttp2Connection(false);
        // Our streams are a small request each, never prioritised: no priority tree to keep per stream.
        connection.remote().flowController(new DefaultHttp2RemoteFlowController(connection,
                new UniformStreamByteDistributor(connection)));
        DefaultHttp2ConnectionEncoder encoder = new DefaultHttp2ConnectionEncoder(connection, new DefaultHttp2FrameWriter());
        DefaultHttp2ConnectionDecoder decoder = new DefaultHttp2ConnectionDecoder(connection, encoder,
                new DefaultHttp2FrameReader());
        Http2Settings settings = new Http2Settings().pushEnabled(false).initialWindowSize(STREAM_WINDOW)
                .maxHeaderListSize(ResponseParser.MAX_HEAD_BYTES);
        return new Session(decoder, encoder, settings);
    }

    /** One channel's HTTP/2 state: Netty's connection handler, with this connection's frame and stream hooks. */
    final class Session extends Http2ConnectionHandler {
        final Http2Connection.PropertyKey clientKey;
        ChannelHandlerContext ctx;
        private boolean reading;
        private boolean flushPending;

        Session(DefaultHttp2ConnectionDecoder decoder, DefaultHttp2ConnectionEncoder encoder, Http2Settings settings) {
            super(decoder, encoder, settings);
            gracefulShutdownTimeoutMillis(0);
            clientKey = connection().newKey();
            decoder.frameListener(new H2Frames(H2Connection.this, this, window));
            connection().addListener(new Streams(this));
        }

        boolean current() {
            return ctx != null && ctx.channel() == reconnector.channel();
        }

        /** Within a read, the flush waits for the read's end, so responses read together send together. */
        void flushSoon() {
            if (reading) {
                flushPending = true;
            } else {
                flush(ctx);
            }
        }

        H2Client clientOf(int streamId) {
            if (!current()) {
                return null;
            }
            Http2Stream s = connection().stream(streamId);
            if (s == null) {
                return null;
            }
            H2Client c = s.getProperty(clientKey);
            return c != null && c.stream == s && c.request != null ? c : null;
        }

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
            this.ctx = ctx;
            super.handlerAdded(ctx);
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) throws Exception {
            super.channelActive(ctx); // the preface and our SETTINGS
            try {
                Http2Stream connectionStream = connection().connectionStream();
                connection().local().flowController().incrementWindowSize(connectionStream,
                        CONNECTION_WINDOW - Http2CodecUtil.DEFAULT_WINDOW_SIZE);
            } catch (Http2Exception e) {
                throw new IllegalStateException("could not widen the connection window", e);
            }
            flush(ctx);
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
            if (current()) {
                liveness.read(System.nanoTime());
                stats.received(window.phase(), ((ByteBuf) msg).readableBytes());
            }
            reading = true;
            try {
                super.channelRead(ctx, msg);
            } finally {
                reading = false;
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
            super.channelReadComplete(ctx);
            if (flushPending) {
                flushPending = false;
                flush(ctx);
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) throws Exception {
            boolean current = current();
            int before = state;
            if (current && state != CLOSED) {
                state = DISCONNECTED; // the streams the codec closes now fail without sending anything new
            }
            super.channelInactive(ctx);
            if (current && before != CLOSED) {
                channelClosed(before);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) throws Exception {
            if (Http2CodecUtil.getEmbeddedHttp2Exception(cause) != null) {
                super.exceptionCaught(ctx, cause);
                return;
            }
            if (current() && closeReason == null && window.wantsErrorSamples()) {
                closeReason = Client.describe(cause);
            }
            ctx.close();
        }

        @Override
        protected void onConnectionError(ChannelHandlerContext ctx, boolean outbound, Throwable cause,
                                         Http2Exception http2Ex) {
            if (current() && closeReason == null && window.wantsErrorSamples()) {
                closeReason = "HTTP/2 connection error: " + Client.describe(cause);
            }
            super.onConnectionError(ctx, outbound, cause, http2Ex);
        }
    }

    /** Streams of one channel: a closed stream frees its client; a GOAWAY retires the connection. */
    private final class Streams extends Http2ConnectionAdapter {
        private final Session s;

        Streams(Session s) {
            this.s = s;
        }

        @Override
        public void onStreamClosed(Http2Stream stream) {
            H2Client c = stream.getProperty(s.clientKey);
            if (c != null && c.stream == stream) {
                streamClosed(c);
            }
        }

        @Override
        public void onGoAwayReceived(int lastStreamId, long errorCode, ByteBuf debugData) {
            if (!s.current()) {
                return;
            }
            if (window.wantsErrorSamples()) {
                Http2Error e = Http2Error.valueOf(errorCode);
                closeReason = "the server sent GOAWAY (" + (e == null ? Long.toString(errorCode) : e.name())
                        + ", last stream " + lastStreamId + ") before answering this stream";
            }
            if (state == READY) {
                state = DRAINING;
            }
            if (state == DRAINING) {
                loop.eventLoop.execute(drainedTask);
            }
        }
    }

    /** Counts the bytes written to the current channel (frames are encoded below the driver). */
    @ChannelHandler.Sharable
    private final class SentBytes extends ChannelOutboundHandlerAdapter {
        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            if (msg instanceof ByteBuf b && ctx.channel() == reconnector.channel()) {
                stats.sent(window.phase(), b.readableBytes());
            }
            ctx.write(msg, promise);
        }
    }
}
