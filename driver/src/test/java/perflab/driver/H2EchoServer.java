package perflab.driver;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http2.DefaultHttp2Connection;
import io.netty.handler.codec.http2.DefaultHttp2ConnectionDecoder;
import io.netty.handler.codec.http2.DefaultHttp2ConnectionEncoder;
import io.netty.handler.codec.http2.DefaultHttp2FrameReader;
import io.netty.handler.codec.http2.DefaultHttp2FrameWriter;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.util.concurrent.DefaultThreadFactory;

import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A tiny h2c server (HTTP/2 with prior knowledge only) on an ephemeral loopback port, the HTTP/2 twin of
 * {@link EchoServer}: for a body "id=0000000042" it answers "idout=42". It counts connections, streams and the
 * most streams it saw in flight on one connection, so tests can confirm that h2c and S streams per connection
 * were really used. Misbehaviours: a wrong idout, never answering (every stream or every n-th, or freezing the
 * whole connection), GOAWAY after n streams, resetting every
 * stream, a body split over two DATA frames, an interim 100 before each response, and stalling every response
 * for a while once.
 */
final class H2EchoServer implements AutoCloseable {
    volatile boolean wrongId;
    volatile boolean neverAnswer;
    /** A request makes the server stop reading its connection: no answer, not even to a PING. */
    volatile boolean freeze;
    volatile boolean resetEach;
    volatile boolean splitBody;
    /** Each response is preceded by an interim HEADERS (:status 100). */
    volatile boolean interimFirst;
    /** When above 0, a connection is sent GOAWAY (NO_ERROR) after answering its n-th stream. */
    volatile int goAwayAfter;
    /** When above 0, every n-th stream (server-wide) is never answered. */
    volatile int ignoreEvery;
    private volatile long stallUntilNanos;

    final AtomicLong streams = new AtomicLong();
    final AtomicLong connections = new AtomicLong();
    final AtomicInteger maxConcurrentStreams = new AtomicInteger();
    /** RST_STREAM frames received from the client. */
    final AtomicLong resets = new AtomicLong();
    private final int streamLimit;
    private final EventLoopGroup group = new NioEventLoopGroup(1, new DefaultThreadFactory("test-h2-server", true));
    /** Holds answers until the test lets them go (see {@link AnswerGate}). */
    final AnswerGate gate = new AnswerGate(group);
    private final Channel server;

    H2EchoServer() throws InterruptedException {
        this(1000);
    }

    /** {@code streamLimit}: the SETTINGS_MAX_CONCURRENT_STREAMS the server announces. */
    H2EchoServer(int streamLimit) throws InterruptedException {
        this.streamLimit = streamLimit;
        server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        connections.incrementAndGet();
                        Deafness deafness = new Deafness();
                        ch.pipeline().addLast(deafness, newHandler(deafness));
                    }
                })
                .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
    }

    URI uri() {
        return URI.create("http://127.0.0.1:" + ((InetSocketAddress) server.localAddress()).getPort() + "/echo");
    }

    /** Holds every response (those in progress and those arriving) until {@code millis} from now. */
    void stallFor(long millis) {
        stallUntilNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    }

    @Override
    public void close() {
        server.close().awaitUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
    }

    /** Once deaf, the connection's bytes are dropped unread: it answers nothing, not even a PING. */
    private static final class Deafness extends io.netty.channel.ChannelInboundHandlerAdapter {
        boolean deaf;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (deaf) {
                io.netty.util.ReferenceCountUtil.release(msg);
            } else {
                ctx.fireChannelRead(msg);
            }
        }
    }

    private Handler newHandler(Deafness deafness) {
        Http2Connection connection = new DefaultHttp2Connection(true);
        DefaultHttp2ConnectionEncoder encoder = new DefaultHttp2ConnectionEncoder(connection, new DefaultHttp2FrameWriter());
        DefaultHttp2ConnectionDecoder decoder = new DefaultHttp2ConnectionDecoder(connection, encoder, new DefaultHttp2FrameReader());
        return new Handler(decoder, encoder, new Http2Settings().maxConcurrentStreams(streamLimit), deafness);
    }

    private final class Handler extends Http2ConnectionHandler {
        private final Map<Integer, StringBuilder> bodies = new HashMap<>();
        private final Deafness deafness;
        private int answered;

        Handler(DefaultHttp2ConnectionDecoder decoder, DefaultHttp2ConnectionEncoder encoder, Http2Settings settings,
                Deafness deafness) {
            super(decoder, encoder, settings);
            this.deafness = deafness;
            decoder.frameListener(new Http2FrameAdapter() {
                @Override
                public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding,
                                          boolean endOfStream) {
                    long n = streams.incrementAndGet();
                    int every = ignoreEvery;
                    if (every > 0 && n % every == 0) {
                        return; // never answered: the body that follows finds no entry
                    }
                    maxConcurrentStreams.accumulateAndGet(connection().numActiveStreams(), Math::max);
                    bodies.put(streamId, new StringBuilder());
                    if (endOfStream) {
                        request(ctx, streamId);
                    }
                }

                @Override
                public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int dependency,
                                          short weight, boolean exclusive, int padding, boolean endOfStream) {
                    onHeadersRead(ctx, streamId, headers, padding, endOfStream);
                }

                @Override
                public int onDataRead(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding, boolean endOfStream) {
                    StringBuilder body = bodies.get(streamId);
                    if (body == null) {
                        return data.readableBytes() + padding;
                    }
                    body.append(data.toString(StandardCharsets.US_ASCII));
                    if (endOfStream) {
                        request(ctx, streamId);
                    }
                    return data.readableBytes() + padding;
                }

                @Override
                public void onRstStreamRead(ChannelHandlerContext ctx, int streamId, long errorCode) {
                    resets.incrementAndGet();
                    bodies.remove(streamId);
                }
            });
        }

        private void request(ChannelHandlerContext ctx, int streamId) {
            StringBuilder sb = bodies.remove(streamId);
            String body = sb == null ? "" : sb.toString();
            if (freeze) {
                deafness.deaf = true;
                return;
            }
            if (neverAnswer) {
                return;
            }
            if (resetEach) {
                resetStream(ctx, streamId, Http2Error.INTERNAL_ERROR.code(), ctx.newPromise());
                return;
            }
            long parsed = body.startsWith("id=") ? Long.parseLong(body.substring(3).trim()) : -1;
            long id = wrongId ? parsed + 1 : parsed;
            long stall = stallUntilNanos - System.nanoTime();
            if (stall > 0) {
                ctx.executor().schedule(() -> respond(ctx, streamId, id), stall, TimeUnit.NANOSECONDS);
            } else {
                gate.answer(() -> respond(ctx, streamId, id));
            }
        }

        private void respond(ChannelHandlerContext ctx, int streamId, long id) {
            if (connection().stream(streamId) == null) {
                return; // reset by the client meanwhile
            }
            byte[] bytes = ("idout=" + id).getBytes(StandardCharsets.US_ASCII);
            if (interimFirst) {
                encoder().writeHeaders(ctx, streamId, new DefaultHttp2Headers().status("100"), 0, false, ctx.newPromise());
            }
            Http2Headers headers = new DefaultHttp2Headers().status("200").set("content-type", "text/plain")
                    .setInt("content-length", bytes.length);
            encoder().writeHeaders(ctx, streamId, headers, 0, false, ctx.newPromise());
            ByteBuf data = ctx.alloc().buffer(bytes.length).writeBytes(bytes);
            if (splitBody) {
                int half = bytes.length / 2;
                encoder().writeData(ctx, streamId, data.retainedSlice(0, half), 0, false, ctx.newPromise());
                encoder().writeData(ctx, streamId, data.slice(half, bytes.length - half), 0, true, ctx.newPromise());
            } else {
                encoder().writeData(ctx, streamId, data, 0, true, ctx.newPromise());
            }
            int n = goAwayAfter;
            if (n > 0 && ++answered == n) {
                goAway(ctx, streamId, Http2Error.NO_ERROR.code(), io.netty.buffer.Unpooled.EMPTY_BUFFER, ctx.newPromise());
            }
            flush(ctx);
        }
    }
}
