package perflab.soapecho.lean;

import perflab.soap.jetty.JettyAnswers;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.server.ConnectionMetaData;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import perflab.core.sut.ServerMetrics;
import perflab.core.sut.ServerSettings;
import perflab.soap.BoundedBody;
import perflab.soap.SoapFault;
import perflab.soapecho.contract.PerfContract;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The service endpoint as a Jetty core handler (no servlet layer): POST runs the echo service, GET ?wsdl
 * serves the contract with the server's real address. Every failure on the service path is a SOAP 1.1
 * fault with HTTP 500. Reading the body blocks, so the handler is of Jetty's blocking invocation type.
 */
final class SoapEchoHandler extends Handler.Abstract {
    private static final String TEXT_XML = "text/xml; charset=UTF-8";
    private static final String REQUESTS_ON_CONNECTION = "perflab.requestsOnConnection";

    private final PerfEchoService service;
    private final int maxRequestBytes;
    private final ServerSettings settings;
    private final ServerMetrics metrics; // null when off
    private final String wsdlBeforeAddress;
    private final String wsdlAfterAddress;

    SoapEchoHandler(ServerSettings settings, ServerMetrics metrics) {
        this.service = new PerfEchoService(settings.maxRequestBytes());
        this.maxRequestBytes = settings.maxRequestBytes();
        this.settings = settings;
        this.metrics = metrics;
        String wsdl = PerfContract.wsdl();
        int at = wsdl.indexOf(PerfContract.DEFAULT_ADDRESS);
        if (at < 0) {
            throw new IllegalStateException("perf.wsdl has no soap:address " + PerfContract.DEFAULT_ADDRESS);
        }
        this.wsdlBeforeAddress = wsdl.substring(0, at);
        this.wsdlAfterAddress = wsdl.substring(at + PerfContract.DEFAULT_ADDRESS.length());
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        String path = request.getHttpURI().getPath();
        if (!PerfContract.SERVICE_PATH.equals(path)) {
            JettyAnswers.plain(response, callback, 404, "no service at this path; the service is at " + PerfContract.SERVICE_PATH);
            return true;
        }
        limitRequestsPerConnection(request, response);
        String method = request.getMethod();
        if (HttpMethod.POST.is(method)) {
            invoke(request, response, callback);
        } else if (HttpMethod.GET.is(method) && "wsdl".equalsIgnoreCase(request.getHttpURI().getQuery())) {
            serveWsdl(request, response, callback);
        } else {
            JettyAnswers.fault(response, callback, SoapFault.client(method + " is not supported here: POST a SOAP 1.1 envelope, or GET ?wsdl"), false);
        }
        return true;
    }

    private void invoke(Request request, Response response, Callback callback) {
        long start = metrics != null ? System.nanoTime() : 0L;
        boolean faulted = true;
        try {
            BoundedBody body = BoundedBody.read(Request.asInputStream(request), request.getLength(), maxRequestBytes);
            ResponseBuffer out = service.invoke(body.array(), body.length());
            response.setStatus(200);
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, TEXT_XML);
            response.getHeaders().put(HttpHeader.CONTENT_LENGTH, out.size());
            response.write(true, out.asByteBuffer(), callback);
            faulted = false;
        } catch (SoapFault f) {
            // a body we did not read to its end must not be mistaken for the next request
            JettyAnswers.fault(response, callback, f, f.reason().startsWith("request body exceeds"));
        } catch (IOException e) {
            JettyAnswers.fault(response, callback, SoapFault.client("could not read the request body: " + e.getMessage()), true);
        } catch (RuntimeException | StackOverflowError e) {
            JettyAnswers.fault(response, callback, SoapFault.server("internal error: " + e.getClass().getSimpleName(), e), true);
        } finally {
            if (metrics != null) {
                metrics.record(System.nanoTime() - start, faulted,
                        request.getConnectionMetaData().getHttpVersion() == HttpVersion.HTTP_2);
            }
        }
    }

    private void serveWsdl(Request request, Response response, Callback callback) {
        String host = Request.getServerName(request);
        if (host.indexOf(':') >= 0 && !host.startsWith("[")) {
            host = "[" + host + "]";
        }
        String address = request.getHttpURI().getScheme() + "://" + host + ":" + Request.getServerPort(request)
                + PerfContract.SERVICE_PATH;
        String wsdl = wsdlBeforeAddress + escapeAttribute(address) + wsdlAfterAddress;
        byte[] bytes = wsdl.getBytes(StandardCharsets.UTF_8);
        response.setStatus(200);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, TEXT_XML);
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, bytes.length);
        response.write(true, ByteBuffer.wrap(bytes), callback);
    }

    /**
     * Emulates a server's "max persistent requests per connection": Connection: close on the Nth HTTP/1.x
     * request. HTTP/2 has no Connection header (its streams share one connection by design): not limited.
     */
    private void limitRequestsPerConnection(Request request, Response response) {
        ConnectionMetaData connection = request.getConnectionMetaData();
        if (settings.maxRequestsPerConnection() == 0 || connection.getHttpVersion() == HttpVersion.HTTP_2) {
            return;
        }
        int[] served = (int[]) connection.getAttribute(REQUESTS_ON_CONNECTION);
        if (served == null) {
            served = new int[1];
            connection.setAttribute(REQUESTS_ON_CONNECTION, served);
        }
        if (settings.lastRequestOnConnection(++served[0])) {
            response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
        }
    }

    private static String escapeAttribute(String s) {
        StringBuilder out = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                default -> out.append(c < 0x20 ? '?' : c);
            }
        }
        return out.toString();
    }
}
