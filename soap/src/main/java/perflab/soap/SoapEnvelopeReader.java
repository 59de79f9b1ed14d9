package perflab.soap;

import com.ctc.wstx.exc.WstxLazyException;

import javax.xml.namespace.QName;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import java.io.ByteArrayInputStream;

/**
 * Opens a SOAP 1.1 envelope with a streaming reader: checks the Envelope element and its namespace, steps
 * over the Header (refusing blocks marked mustUnderstand, which no generic reader can honour), and leaves
 * the reader on the start tag of the Body's first child, the payload. After the payload has been consumed,
 * {@link Envelope#finish()} reads the rest of the document so that trailing garbage is refused too.
 * A DOCTYPE anywhere is refused before any content is read.
 */
public final class SoapEnvelopeReader {
    public static final String SOAP11_NS = "http://schemas.xmlsoap.org/soap/envelope/";
    public static final String SOAP12_NS = "http://www.w3.org/2003/05/soap-envelope";

    private final XMLInputFactory factory;

    /** @param factory a hardened factory from {@link HardenedXml#inputFactory} */
    public SoapEnvelopeReader(XMLInputFactory factory) {
        this.factory = factory;
    }

    /** An opened envelope: the reader sits on the payload's start tag. */
    public static final class Envelope implements AutoCloseable {
        private final XMLStreamReader reader;

        private Envelope(XMLStreamReader reader) {
            this.reader = reader;
        }

        public XMLStreamReader reader() {
            return reader;
        }

        /** Name of the Body's first child. */
        public QName payloadName() {
            return reader.getName();
        }

        /**
         * Called with the reader on the payload's end tag: checks that the Body and Envelope close and that
         * nothing but whitespace, comments or processing instructions follows.
         */
        public void finish() throws SoapFault {
            try {
                if (reader.getEventType() != XMLStreamConstants.END_ELEMENT) {
                    throw SoapFault.client("payload was not read to its end");
                }
                int event = nextTag(reader);
                if (event != XMLStreamConstants.END_ELEMENT || !isSoap(reader, "Body")) {
                    throw SoapFault.client("SOAP Body must hold exactly one element, found "
                            + describe(reader, event));
                }
                event = nextTag(reader);
                if (event != XMLStreamConstants.END_ELEMENT || !isSoap(reader, "Envelope")) {
                    throw SoapFault.client("nothing may follow the SOAP Body, found " + describe(reader, event));
                }
                while (reader.hasNext()) {
                    event = reader.next();
                    if (event == XMLStreamConstants.DTD) {
                        throw SoapFault.client("DOCTYPE is not allowed in SOAP messages");
                    }
                }
            } catch (XMLStreamException | WstxLazyException e) {
                throw malformed(e);
            }
        }

        @Override
        public void close() {
            try {
                reader.close();
            } catch (XMLStreamException ignored) {
                // nothing to release that matters
            }
        }
    }

    /** Opens the envelope in {@code body[0, length)}; the caller must close the returned envelope. */
    public Envelope open(byte[] body, int length) throws SoapFault {
        XMLStreamReader reader;
        try {
            reader = factory.createXMLStreamReader(new ByteArrayInputStream(body, 0, length));
        } catch (XMLStreamException e) {
            throw malformed(e);
        }
        boolean ok = false;
        try {
            openOn(reader);
            ok = true;
            return new Envelope(reader);
        } finally {
            if (!ok) {
                try {
                    reader.close();
                } catch (XMLStreamException ignored) {
                    // already failing
                }
            }
        }
    }

    private static void openOn(XMLStreamReader reader) throws SoapFault {
        try {
            int event = nextTag(reader);
            if (event != XMLStreamConstants.START_ELEMENT || !"Envelope".equals(reader.getLocalName())) {
                throw SoapFault.client("not a SOAP message: the root element must be Envelope, found "
                        + describe(reader, event));
            }
            String ns = reader.getNamespaceURI();
            if (!SOAP11_NS.equals(ns)) {
                throw new SoapFault(SoapFault.Code.VERSION_MISMATCH, SOAP12_NS.equals(ns)
                        ? "SOAP 1.2 envelopes are not supported here; send SOAP 1.1 (" + SOAP11_NS + ")"
                        : "wrong envelope namespace '" + ns + "'; expected " + SOAP11_NS);
            }
            event = nextTag(reader);
            if (event == XMLStreamConstants.START_ELEMENT && isSoap(reader, "Header")) {
                skipHeader(reader);
                event = nextTag(reader);
            }
            if (event != XMLStreamConstants.START_ELEMENT || !isSoap(reader, "Body")) {
                throw SoapFault.client("SOAP Envelope must contain a Body, found " + describe(reader, event));
            }
            event = nextTag(reader);
            if (event != XMLStreamConstants.START_ELEMENT) {
                throw SoapFault.client("SOAP Body is empty");
            }
        } catch (XMLStreamException | WstxLazyException e) {
            throw malformed(e);
        }
    }

    private static void skipHeader(XMLStreamReader reader) throws XMLStreamException, SoapFault {
        int depth = 1;
        while (depth > 0) {
            int event = nextTag(reader);
            if (event == XMLStreamConstants.START_ELEMENT) {
                if (depth == 1) {
                    String mu = reader.getAttributeValue(SOAP11_NS, "mustUnderstand");
                    if (mu != null && ("1".equals(mu.trim()) || "true".equals(mu.trim()))) {
                        throw new SoapFault(SoapFault.Code.MUST_UNDERSTAND,
                                "header " + reader.getName() + " is marked mustUnderstand and is not understood");
                    }
                }
                depth++;
            } else {
                depth--;
            }
        }
    }

    /**
     * Like {@link XMLStreamReader#nextTag()} but tolerant of text inside header blocks, and refusing DTDs and
     * unexpanded entity references with a clear reason.
     */
    static int nextTag(XMLStreamReader reader) throws XMLStreamException, SoapFault {
        while (true) {
            if (!reader.hasNext()) {
                throw SoapFault.client("SOAP message ended early");
            }
            int event = reader.next();
            switch (event) {
                case XMLStreamConstants.START_ELEMENT, XMLStreamConstants.END_ELEMENT, XMLStreamConstants.END_DOCUMENT:
                    return event;
                case XMLStreamConstants.DTD:
                    throw SoapFault.client("DOCTYPE is not allowed in SOAP messages");
                case XMLStreamConstants.ENTITY_REFERENCE:
                    throw SoapFault.client("entity reference &" + reader.getLocalName() + "; is not allowed");
                default:
                    // whitespace, text in skipped headers, comments, processing instructions
            }
        }
    }

    private static boolean isSoap(XMLStreamReader reader, String localName) {
        return localName.equals(reader.getLocalName()) && SOAP11_NS.equals(reader.getNamespaceURI());
    }

    private static String describe(XMLStreamReader reader, int event) {
        return switch (event) {
            case XMLStreamConstants.START_ELEMENT -> "<" + reader.getName() + ">";
            case XMLStreamConstants.END_ELEMENT -> "</" + reader.getName() + ">";
            case XMLStreamConstants.END_DOCUMENT -> "end of document";
            default -> "event " + event;
        };
    }

    /**
     * A parse error as a Client fault whose reason is the parser's message on one line. Woodstox reports some
     * errors lazily, from accessors such as getText(), as a {@link WstxLazyException} (unchecked): callers
     * reading a payload catch it beside XMLStreamException and pass it here too.
     */
    public static SoapFault malformed(Exception e) {
        Throwable cause = e instanceof WstxLazyException && e.getCause() != null ? e.getCause() : e;
        String message = cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
        return SoapFault.client("malformed XML: " + message.replaceAll("\\s+", " ").trim(), e);
    }
}
