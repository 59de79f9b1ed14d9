package perflab.example.hello;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import perflab.core.sut.ServerMetrics;
import perflab.core.sut.ServerSettings;
import perflab.core.sut.StartedServer;
import perflab.core.sut.SutArgs;
import perflab.core.sut.SutBootstrap;
import perflab.soap.jetty.JettyAnswers;
import perflab.soap.jetty.PlainErrorHandler;
import perflab.soap.jetty.RequestsPerConnection;
import perflab.soap.jetty.SutJettyServer;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The hello workload's SUT: Jetty 12 core as every perflab stack runs it ({@link SutJettyServer}: HTTP/1.1, h2c with
 * {@code --http h2c}, the common server settings), with the smallest service that still proves each answer was made
 * for its request. At {@value HelloWorkload#SERVICE_PATH}: POST echoes the body, GET {@code ?id=N} answers
 * {@code hello N}. A body over {@code max-request-bytes} gets 413 and the connection is closed.
 */
public final class HelloServer extends Handler.Abstract {
    static final String GREETING = "hello ";

    private final int maxRequestBytes;
    private final RequestsPerConnection connections;
    private final ServerMetrics metrics; // null when off

    private HelloServer(ServerSettings settings, ServerMetrics metrics) {
        this.maxRequestBytes = settings.maxRequestBytes();
        this.connections = new RequestsPerConnection(settings);
        this.metrics = metrics;
    }

    public static void main(String[] args) {
        SutBootstrap.run(args, ServerSettings.NAMES, HelloServer::start);
    }

    /** Starts the server; also the entry point for in-process tests. */
    public static StartedServer start(SutArgs args) throws Exception {
        ServerSettings settings = ServerSettings.from(args);
        SutJettyServer jetty = SutJettyServer.create(settings, "hello");
        jetty.server().setErrorHandler(new PlainErrorHandler());
        ServerMetrics metrics = settings.serverMetrics() ? new ServerMetrics() : null;
        int port = jetty.start(new HelloServer(settings, metrics));
        return new StartedServer(port, metrics, jetty::stop);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        if (!HelloWorkload.SERVICE_PATH.equals(request.getHttpURI().getPath())) {
            JettyAnswers.plain(response, callback, 404, "no service at this path; it is at " + HelloWorkload.SERVICE_PATH);
            return true;
        }
        connections.apply(request, response);
        long start = metrics != null ? System.nanoTime() : 0L;
        boolean failed = true;
        try {
            String method = request.getMethod();
            if (HttpMethod.POST.is(method)) {
                failed = !echo(request, response, callback);
            } else if (HttpMethod.GET.is(method)) {
                failed = !greet(request, response, callback);
            } else {
                JettyAnswers.plain(response, callback, 405, method + " is not served here: POST a body, or GET ?id=N");
            }
        } catch (IOException | RuntimeException e) {
            response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
            JettyAnswers.plain(response, callback, 400, "unreadable request: " + e.getClass().getSimpleName());
        } finally {
            if (metrics != null) {
                metrics.record(System.nanoTime() - start, failed,
                        request.getConnectionMetaData().getHttpVersion() == HttpVersion.HTTP_2);
            }
        }
        return true;
    }

    /** The body back as it came; one over the limit is refused without reading the rest. */
    private boolean echo(Request request, Response response, Callback callback) throws IOException {
        long declared = request.getLength();
        if (declared > maxRequestBytes) {
            refuseTooLarge(response, callback);
            return false;
        }
        byte[] body;
        try (InputStream in = Request.asInputStream(request)) {
            body = in.readNBytes(maxRequestBytes + 1);
        }
        if (body.length > maxRequestBytes) { // chunked, no length declared
            refuseTooLarge(response, callback);
            return false;
        }
        answer(response, callback, body);
        return true;
    }

    /** {@code hello N} for {@code ?id=N}, N a whole number of at most 19 digits. */
    private boolean greet(Request request, Response response, Callback callback) {
        String query = request.getHttpURI().getQuery();
        if (query == null || !query.matches("id=[0-9]{1,19}")) {
            JettyAnswers.plain(response, callback, 400, "GET " + HelloWorkload.SERVICE_PATH + "?id=N, N a whole number");
            return false;
        }
        answer(response, callback, (GREETING + query.substring(3)).getBytes(StandardCharsets.US_ASCII));
        return true;
    }

    private static void answer(Response response, Callback callback, byte[] body) {
        response.setStatus(200);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; charset=UTF-8");
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
        response.write(true, ByteBuffer.wrap(body), callback);
    }

    /** The unread rest of the body would be taken for the next request: the connection closes. */
    private static void refuseTooLarge(Response response, Callback callback) {
        response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
        JettyAnswers.plain(response, callback, 413, "request body over max-request-bytes");
    }
}
