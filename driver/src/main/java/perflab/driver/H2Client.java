package perflab.driver;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Stream;
import perflab.core.traffic.ClientSession;

/**
 * One h2c client: one stream at a time on its {@link H2Connection}, which it shares with up to S - 1 other
 * clients. It is idle when it has no stream and its connection may open one; the connection writes its
 * requests and hands it the response.
 */
final class H2Client extends Client {
    final H2Connection connection;
    /** The stream of the outstanding request (identity: stream ids repeat on every new connection). */
    Http2Stream stream;
    /** The response's header block once it has arrived, and its body if it came in several DATA frames. */
    Http2Headers responseHeaders;
    int status;
    ByteBuf body;

    H2Client(DriverLoop loop, H2Connection connection, ClientSession session, double deepCheckRatio, long deepSeed,
             boolean openModel) {
        super(loop, session, deepCheckRatio, deepSeed, openModel);
        this.connection = connection;
    }

    @Override
    boolean idle() {
        return stream == null && request == null && connection.canStartStream();
    }

    @Override
    boolean busy() {
        return stream != null || request != null;
    }

    @Override
    long connectStartNanos() {
        return connection.connectStartNanos();
    }

    @Override
    void send(long intendedNanos, long freeSinceNanos) {
        if (idle()) {
            begin(intendedNanos);
            connection.startStream(this, freeSinceNanos);
        }
    }

    /** Forgets the response in progress (after completion or failure). */
    void clearResponse() {
        responseHeaders = null;
        status = 0;
        if (body != null) {
            body.release();
            body = null;
        }
    }
}
