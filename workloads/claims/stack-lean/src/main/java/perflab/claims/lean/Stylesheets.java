package perflab.claims.lean;

import com.ctc.wstx.sax.WstxSAXParserFactory;
import com.ctc.wstx.stax.WstxInputFactory;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;
import org.xml.sax.XMLReader;

import perflab.claims.contract.ClaimsContract;

import javax.xml.XMLConstants;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.transform.Templates;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerConfigurationException;
import javax.xml.transform.TransformerException;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.sax.SAXSource;
import javax.xml.transform.stream.StreamResult;
import javax.xml.transform.stream.StreamSource;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.EnumMap;
import java.util.Map;

/**
 * The contract's mediation stylesheets compiled once into {@link Templates} (JDK XSLTC, thread-safe) and
 * applied per message. Input is read by Woodstox's SAX parser made from the hardened StAX factory (its DTD,
 * entity and size settings), so a stylesheet never sees a DTD or an entity. SAX, not a StAXSource: XSLTC bridges a
 * StAX reader to SAX itself, a String per name and text (17 % of a 100 KB transform's allocation, profiled), where
 * Woodstox's SAX parser hands XSLTC its own character buffers.
 */
final class Stylesheets {
    private final Map<ClaimsContract.Stylesheet, Templates> templates = new EnumMap<>(ClaimsContract.Stylesheet.class);
    private final WstxSAXParserFactory input;

    Stylesheets(XMLInputFactory hardenedInput) {
        this.input = new WstxSAXParserFactory((WstxInputFactory) hardenedInput);
        this.input.setNamespaceAware(true);
        // the JDK's own XSLTC whatever else is on the classpath (DESIGN: faster than Saxon-HE for small XSLT 1.0)
        TransformerFactory factory = TransformerFactory.newDefaultInstance();
        try {
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            for (ClaimsContract.Stylesheet sheet : ClaimsContract.Stylesheet.values()) {
                try (InputStream in = sheet.url().openStream()) {
                    templates.put(sheet, factory.newTemplates(new StreamSource(in, sheet.url().toString())));
                }
            }
        } catch (TransformerConfigurationException e) {
            throw new IllegalStateException("a mediation stylesheet does not compile: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Transforms {@code body[0, length)} with {@code sheet}; {@code contextValue} goes to its context parameter. */
    byte[] transform(ClaimsContract.Stylesheet sheet, byte[] body, int length, String contextValue)
            throws XMLStreamException, TransformerException {
        Transformer t = templates.get(sheet).newTransformer();
        if (contextValue != null) {
            t.setParameter(ClaimsContract.CONTEXT_PARAM, contextValue);
        }
        OutputBuffer out = new OutputBuffer(length + 512);
        XMLReader reader;
        try {
            reader = input.newSAXParser().getXMLReader();
        } catch (SAXException e) {
            throw new IllegalStateException("the hardened SAX parser cannot be made: " + e.getMessage(), e);
        }
        t.transform(new SAXSource(reader, new InputSource(new ByteArrayInputStream(body, 0, length))), new StreamResult(out));
        return out.toByteArray();
    }

    /** A growable output buffer (the stream XSLTC writes into). */
    static final class OutputBuffer extends java.io.ByteArrayOutputStream {
        OutputBuffer(int size) {
            super(size);
        }
    }
}
