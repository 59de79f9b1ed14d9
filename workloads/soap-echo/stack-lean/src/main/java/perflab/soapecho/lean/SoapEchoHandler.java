package perflab.soapecho.lean;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import perflab.core.sut.ServerMetrics;
import perflab.core.sut.ServerSettings;
import perflab.soap.BoundedBody;
import perflab.soap.SoapAdmission;
import perflab.soap.SoapFault;
import perflab.soap.jetty.JettyAnswers;
import perflab.soap.jetty.RequestsPerConnection;
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

    private final SoapAdmission admission;
    private final PerfEchoService service;
    private final RequestsPerConnection connections;
    private final ServerMetrics metrics; // null when off
    private final String wsdlBeforeAddress;
    private final String wsdlAfterAddress;

    SoapEchoHandler(ServerSettings settings, ServerMetrics metrics) {
        this.admission = new SoapAdmission(settings.maxRequestBytes());
        this.service = new PerfEchoService(admission.envelopes());
        this.connections = new RequestsPerConnection(settings);
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
        connections.apply(request, response);
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
            BoundedBody body = admission.readBody(Request.asInputStream(request), request.getLength());
            ResponseBuffer out = service.invoke(body.array(), body.length());
            response.setStatus(200);
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, TEXT_XML);
            response.getHeaders().put(HttpHeader.CONTENT_LENGTH, out.size());
            response.write(true, out.asByteBuffer(), callback);
            faulted = false;
        } catch (SoapFault | IOException | RuntimeException | StackOverflowError e) {
            JettyAnswers.failure(response, callback, e);
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
