package perflab.driver;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Settings;
import perflab.core.traffic.ErrorKind;

/**
 * The server's frames on one h2c channel, read into its clients' responses. Netty's codec encodes and decodes the
 * frames themselves (HPACK included) and answers PINGs and SETTINGS; this listener gets what the driver acts on:
 * the server's SETTINGS (the first makes the connection ready), a response's HEADERS (its status; an interim 1xx
 * is skipped), its DATA (a body in one frame is checked in place, one in several frames is aggregated for the
 * client, up to {@link ResponseParser#MAX_BODY_BYTES}) and RST_STREAM (the request fails as {@code io}). Frames
 * of a stream that is no longer a client's outstanding request, or of an old channel, are ignored. Used on the
 * connection's event loop only.
 */
final class H2Frames extends Http2FrameAdapter {
    private final H2Connection connection;
    private final H2Connection.Session session;
    private final MeasurementWindow window;

    H2Frames(H2Connection connection, H2Connection.Session session, MeasurementWindow window) {
        this.connection = connection;
        this.session = session;
        this.window = window;
    }

    @Override
    public void onSettingsRead(ChannelHandlerContext ctx, Http2Settings settings) {
        connection.settingsRead(session);
    }

    @Override
    public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding,
                              boolean endOfStream) {
        H2Client c = session.clientOf(streamId);
        if (c == null) {
            return;
        }
        if (c.responseHeaders == null) {
            int status = H2Response.status(headers);
            if (status >= 100 && status < 200 && !endOfStream) {
                return; // an interim response (100 Continue): the real one follows
            }
            c.responseHeaders = headers;
            c.status = status;
        }
        if (endOfStream) {
            connection.finish(c, c.body);
        }
    }

    @Override
    public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int streamDependency,
                              short weight, boolean exclusive, int padding, boolean endOfStream) {
        onHeadersRead(ctx, streamId, headers, padding, endOfStream);
    }

    @Override
    public int onDataRead(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding, boolean endOfStream) {
        int processed = data.readableBytes() + padding; // consumed at once: the window reopens as we read
        H2Client c = session.clientOf(streamId);
        if (c == null) {
            return processed;
        }
        if (endOfStream && c.body == null) {
            connection.finish(c, data); // the usual small response: one DATA frame, checked in place
            return processed;
        }
        ByteBuf body = c.body;
        if (body == null) {
            body = ctx.alloc().heapBuffer(Math.max(4096, data.readableBytes() * 2));
        } else if (body.writableBytes() < data.readableBytes()) {
            if (body.readableBytes() + (long) data.readableBytes() > ResponseParser.MAX_BODY_BYTES) {
                session.resetStream(ctx, streamId, Http2Error.CANCEL.code(), ctx.newPromise());
                return processed;
            }
            ByteBuf bigger = ctx.alloc().heapBuffer(Math.max(body.capacity() * 2,
                    body.readableBytes() + data.readableBytes()));
            bigger.writeBytes(body);
            body.release();
            body = bigger;
        }
        body.writeBytes(data);
        c.body = body;
        if (endOfStream) {
            connection.finish(c, body);
        }
        return processed;
    }

    @Override
    public void onRstStreamRead(ChannelHandlerContext ctx, int streamId, long errorCode) {
        H2Client c = session.clientOf(streamId);
        if (c != null) {
            Http2Error e = Http2Error.valueOf(errorCode);
            c.fail(ErrorKind.IO, window.wantsErrorSamples() ? "the server reset the stream (RST_STREAM "
                    + (e == null ? Long.toString(errorCode) : e.name()) + ")" : null);
            c.clearResponse();
        }
    }
}
