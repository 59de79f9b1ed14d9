package perflab.soapecho.testkit;

import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.http2.api.Session;
import org.eclipse.jetty.http2.api.Stream;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.frames.DataFrame;
import org.eclipse.jetty.http2.frames.HeadersFrame;
import org.eclipse.jetty.http2.frames.ResetFrame;
import org.eclipse.jetty.util.Callback;

import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** HTTP/2 over cleartext with prior knowledge (no Upgrade), as perflab's driver speaks it: Jetty's low-level client. */
public final class H2cPriorKnowledge implements AutoCloseable {
    public record Response(int status, String body) {
    }

    private final HTTP2Client client = new HTTP2Client();
    private final Session session;
    private final int port;

    public H2cPriorKnowledge(int port) throws Exception {
        this.port = port;
        client.start();
        session = client.connect(new InetSocketAddress("127.0.0.1", port), new Session.Listener() {
        }).get(5, TimeUnit.SECONDS);
    }

    /** POSTs {@code xml} on a new stream of the one connection and waits for the whole response. */
    public Response post(String path, String xml) throws Exception {
        byte[] body = xml.getBytes(StandardCharsets.UTF_8);
        HttpFields fields = HttpFields.build().put(HttpHeader.CONTENT_TYPE, "text/xml; charset=UTF-8").put("SOAPAction", "\"\"");
        MetaData.Request request = new MetaData.Request("POST", HttpURI.from("http://127.0.0.1:" + port + path),
                HttpVersion.HTTP_2, fields, body.length);
        CompletableFuture<Response> done = new CompletableFuture<>();
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        int[] status = new int[1];
        Stream.Listener listener = new Stream.Listener() {
            @Override
            public void onHeaders(Stream stream, HeadersFrame frame) {
                if (frame.getMetaData() instanceof MetaData.Response response) {
                    status[0] = response.getStatus();
                }
                if (frame.isEndStream()) {
                    done.complete(new Response(status[0], received.toString(StandardCharsets.UTF_8)));
                } else {
                    stream.demand();
                }
            }

            @Override
            public void onDataAvailable(Stream stream) {
                Stream.Data data = stream.readData();
                if (data == null) {
                    stream.demand();
                    return;
                }
                ByteBuffer bytes = data.frame().getByteBuffer();
                byte[] chunk = new byte[bytes.remaining()];
                bytes.get(chunk);
                received.writeBytes(chunk);
                boolean last = data.frame().isEndStream();
                data.release();
                if (last) {
                    done.complete(new Response(status[0], received.toString(StandardCharsets.UTF_8)));
                } else {
                    stream.demand();
                }
            }

            @Override
            public void onReset(Stream stream, ResetFrame frame, Callback callback) {
                done.completeExceptionally(new IllegalStateException("stream reset: error " + frame.getError()));
                callback.succeeded();
            }
        };
        Stream stream = session.newStream(new HeadersFrame(request, null, false), listener).get(5, TimeUnit.SECONDS);
        stream.data(new DataFrame(stream.getId(), ByteBuffer.wrap(body), true)).get(5, TimeUnit.SECONDS);
        return done.get(10, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws Exception {
        client.stop();
    }
}
