package perflab.claims.lean;

import perflab.claims.contract.ClaimsContract;

import javax.xml.XMLConstants;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.transform.Templates;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerConfigurationException;
import javax.xml.transform.TransformerException;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.stax.StAXSource;
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
 * applied per message. Input is read by the hardened StAX factory, so a stylesheet never sees a DTD or an entity.
 */
final class Stylesheets {
    private final Map<ClaimsContract.Stylesheet, Templates> templates = new EnumMap<>(ClaimsContract.Stylesheet.class);
    private final XMLInputFactory input;

    Stylesheets(XMLInputFactory hardenedInput) {
        this.input = hardenedInput;
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
        StAXSource source = new StAXSource(input.createXMLStreamReader(new ByteArrayInputStream(body, 0, length)));
        t.transform(source, new StreamResult(out));
        return out.toByteArray();
    }

    /** A growable output buffer (the stream XSLTC writes into). */
    static final class OutputBuffer extends java.io.ByteArrayOutputStream {
        OutputBuffer(int size) {
            super(size);
        }
    }
}
