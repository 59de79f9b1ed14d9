package perflab.agents;

import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/** A real HTTP server on loopback that answers "ok" and can stall every request for a while (a GC pause, say). */
final class StallServer implements AutoCloseable {
    private final Server server = new Server();
    private final ServerConnector connector = new ServerConnector(server);
    private volatile long stallUntilNanos;

    StallServer() throws Exception {
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                long wait = stallUntilNanos - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                response.setStatus(200);
                response.write(true, ByteBuffer.wrap("ok".getBytes(StandardCharsets.US_ASCII)), callback);
                return true;
            }
        });
        server.start();
    }

    URI uri() {
        return URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/stall");
    }

    /** Every request, in flight or arriving, waits until {@code ms} from now. */
    void stallFor(long ms) {
        stallUntilNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
    }

    @Override
    public void close() throws Exception {
        server.stop();
    }
}
