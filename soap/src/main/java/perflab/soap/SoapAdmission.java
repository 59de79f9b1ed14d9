package perflab.soap;

import javax.xml.stream.XMLInputFactory;
import java.io.IOException;
import java.io.InputStream;

/**
 * What every perflab SOAP endpoint checks before its service sees a request, whatever the server under it:
 * a POST, a body no larger than {@code max-request-bytes} ({@link BoundedBody}), an envelope opened with the
 * hardened StAX reader ({@link HardenedXml}, {@link SoapEnvelopeReader}), so that a DOCTYPE, an entity or an
 * oversized body is refused before any service code runs. Thread-safe: one per server.
 */
public final class SoapAdmission {
    private static final String TOO_LARGE = BoundedBody.TOO_LARGE;
    private static final String UNREADABLE = "could not read the request body";
    private static final String INTERNAL = "internal error";

    private final int maxRequestBytes;
    private final XMLInputFactory input;
    private final SoapEnvelopeReader envelopes;

    public SoapAdmission(int maxRequestBytes) {
        this.maxRequestBytes = maxRequestBytes;
        this.input = HardenedXml.inputFactory(HardenedXml.Limits.forDocumentsUpTo(maxRequestBytes));
        this.envelopes = new SoapEnvelopeReader(input);
    }

    /** The hardened factory the envelopes are read with, for a service's own parsing (stylesheets...). */
    public XMLInputFactory inputFactory() {
        return input;
    }

    public SoapEnvelopeReader envelopes() {
        return envelopes;
    }

    /**
     * A POST's body, read to its end and never past the limit.
     *
     * @param method         the HTTP method, or null where the transport has already dispatched on it
     * @param declaredLength the Content-Length, or negative when unknown (chunked)
     */
    public BoundedBody admit(String method, InputStream body, long declaredLength) throws SoapFault, IOException {
        if (method != null && !"POST".equals(method)) {
            throw SoapFault.client(method + " is not supported here: POST a SOAP 1.1 envelope");
        }
        return readBody(body, declaredLength);
    }

    /** The body alone, for an endpoint that answers other methods too (GET ?wsdl). */
    public BoundedBody readBody(InputStream body, long declaredLength) throws SoapFault, IOException {
        return BoundedBody.read(body, declaredLength, maxRequestBytes);
    }

    /** A request's failure as the fault that answers it: a service's own fault as it is. */
    public static SoapFault asFault(Throwable failure) {
        if (failure instanceof SoapFault fault) {
            return fault;
        }
        if (failure instanceof IOException e) {
            return SoapFault.client(UNREADABLE + ": " + e.getMessage());
        }
        return SoapFault.server(INTERNAL + ": " + failure.getClass().getSimpleName(), failure);
    }

    /**
     * Whether the connection must close after this fault: the body was not read to its end (too large,
     * unreadable), so its rest must not be taken for the next request, or the server failed inside.
     */
    public static boolean closesConnection(SoapFault fault) {
        String reason = fault.reason();
        return reason.startsWith(TOO_LARGE) || reason.startsWith(UNREADABLE) || reason.startsWith(INTERNAL);
    }
}
