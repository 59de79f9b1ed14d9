package perflab.soap.jetty;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import perflab.soap.SoapAdmission;
import perflab.soap.SoapFault;
import perflab.soap.SoapFaultWriter;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** The non-SOAP-payload answers every Jetty-based perflab server gives: a SOAP 1.1 fault, a plain line. */
public final class JettyAnswers {
    private JettyAnswers() {
    }

    /**
     * A SOAP 1.1 fault (HTTP 500). {@code closeConnection} after a request whose body was not read to its
     * end (too large, unreadable), so that no leftover bytes are taken for the next request.
     */
    public static void fault(Response response, Callback callback, SoapFault fault, boolean closeConnection) {
        byte[] bytes = SoapFaultWriter.toBytes(fault);
        response.setStatus(SoapFaultWriter.HTTP_STATUS);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, SoapFaultWriter.CONTENT_TYPE);
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, bytes.length);
        if (closeConnection) {
            response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
        }
        response.write(true, ByteBuffer.wrap(bytes), callback);
    }

    /**
     * The answer to a request that failed on its way through admission or its service: the fault that
     * {@link SoapAdmission#asFault} makes of it, closing the connection where the body was not read to its end.
     */
    public static void failure(Response response, Callback callback, Throwable failure) {
        SoapFault fault = SoapAdmission.asFault(failure);
        fault(response, callback, fault, SoapAdmission.closesConnection(fault));
    }

    /** One line of plain text with a status (404, 405...): never an HTML error page. */
    public static void plain(Response response, Callback callback, int status, String text) {
        byte[] bytes = (text + "\n").getBytes(StandardCharsets.UTF_8);
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; charset=UTF-8");
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, bytes.length);
        response.write(true, ByteBuffer.wrap(bytes), callback);
    }
}
