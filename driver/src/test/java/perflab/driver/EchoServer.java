package perflab.driver;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.concurrent.DefaultThreadFactory;

import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A tiny HTTP/1.1 server on an ephemeral loopback port: for a body "id=0000000042" it answers "idout=42".
 * Tests switch its misbehaviours on: a wrong idout, HTTP 500, closing every connection, never answering,
 * chunked responses, and stalling every response for a while once.
 */
final class EchoServer implements AutoCloseable {
    volatile boolean wrongId;
    volatile boolean status500;
    volatile boolean closeEach;
    volatile boolean neverAnswer;
    volatile boolean chunked;
    /** Each answer is held this long after its request arrived: a server of capacity connections / this. */
    volatile long serviceMillis;
    private volatile long stallUntilNanos;

    final AtomicLong requests = new AtomicLong();
    final AtomicLong connections = new AtomicLong();
    final Set<Channel> seenChannels = ConcurrentHashMap.newKeySet();
    /** When set, each connection's request arrival times (System.nanoTime, when the server read them). */
    volatile boolean recordArrivals;
    final Map<Channel, List<Long>> arrivals = new ConcurrentHashMap<>();
    private final EventLoopGroup group = new NioEventLoopGroup(1, new DefaultThreadFactory("test-echo-server", true));
    /** Holds answers until the test lets them go (see {@link AnswerGate}). */
    final AnswerGate gate = new AnswerGate(group);
    private final Channel server;

    EchoServer() throws InterruptedException {
        server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        connections.incrementAndGet();
                        seenChannels.add(ch);
                        ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(1 << 20), new Handler());
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

    private final class Handler extends SimpleChannelInboundHandler<FullHttpRequest> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
            requests.incrementAndGet();
            if (recordArrivals) {
                arrivals.computeIfAbsent(ctx.channel(), c -> new CopyOnWriteArrayList<>()).add(System.nanoTime());
            }
            if (neverAnswer) {
                return;
            }
            String body = req.content().toString(StandardCharsets.US_ASCII);
            long parsed = body.startsWith("id=") ? Long.parseLong(body.substring(3).trim()) : -1;
            long id = wrongId ? parsed + 1 : parsed;
            boolean close = closeEach || !HttpUtil.isKeepAlive(req);
            long stall = stallUntilNanos - System.nanoTime();
            Runnable respond = () -> respond(ctx, id, close);
            stall = Math.max(stall, TimeUnit.MILLISECONDS.toNanos(serviceMillis));
            if (stall > 0) {
                ctx.executor().schedule(respond, stall, TimeUnit.NANOSECONDS);
            } else {
                gate.answer(respond);
            }
        }

        private void respond(ChannelHandlerContext ctx, long id, boolean close) {
            HttpResponseStatus status = status500 ? HttpResponseStatus.INTERNAL_SERVER_ERROR : HttpResponseStatus.OK;
            byte[] bytes = ("idout=" + id).getBytes(StandardCharsets.US_ASCII);
            if (chunked) {
                HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, status);
                HttpUtil.setTransferEncodingChunked(head, true);
                head.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain");
                if (close) {
                    head.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
                }
                ctx.write(head);
                int half = bytes.length / 2;
                ctx.write(new DefaultHttpContent(Unpooled.wrappedBuffer(bytes, 0, half)));
                ctx.write(new DefaultHttpContent(Unpooled.wrappedBuffer(bytes, half, bytes.length - half)));
                var f = ctx.writeAndFlush(new DefaultLastHttpContent());
                if (close) {
                    f.addListener(ChannelFutureListener.CLOSE);
                }
                return;
            }
            ByteBuf content = Unpooled.wrappedBuffer(bytes);
            FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, content);
            res.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain");
            res.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, bytes.length);
            if (close) {
                res.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
                ctx.writeAndFlush(res).addListener(ChannelFutureListener.CLOSE);
            } else {
                ctx.writeAndFlush(res);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
