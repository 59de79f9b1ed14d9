package perflab.soap.jetty;

import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Answers Jetty's own errors (bad HTTP, unhandled exceptions) with one plain-text line: no HTML page, no
 * stack trace, nothing taken from the request but the status.
 */
public final class PlainErrorHandler extends ErrorHandler {
    @Override
    protected void generateResponse(Request request, Response response, int code, String message, Throwable cause,
                                    Callback callback) {
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; charset=UTF-8");
        response.write(true, body(code), callback);
    }

    @Override
    public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
        fields.put(new HttpField(HttpHeader.CONTENT_TYPE, "text/plain; charset=UTF-8"));
        return body(status);
    }

    private static ByteBuffer body(int code) {
        String reason = HttpStatus.getMessage(code);
        return ByteBuffer.wrap((code + " " + (reason == null ? "" : reason) + "\n").getBytes(StandardCharsets.US_ASCII));
    }
}
