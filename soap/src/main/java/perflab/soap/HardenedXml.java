package perflab.soap;

import com.ctc.wstx.api.WstxInputProperties;
import com.ctc.wstx.stax.WstxInputFactory;
import com.ctc.wstx.stax.WstxOutputFactory;

import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLResolver;
import javax.xml.stream.XMLStreamException;

/**
 * StAX factories (Woodstox) safe for input from the network: no DTD processing, no external entity ever
 * resolved, no entity expansion, and hard limits on depth, attributes, text and total size so that a hostile
 * document fails fast instead of exhausting memory or CPU. A DOCTYPE is refused outright by
 * {@link SoapEnvelopeReader}; these settings make sure nothing in one could be acted upon anyway.
 * Factories are thread-safe once configured: build them once and share them.
 */
public final class HardenedXml {

    /**
     * Parser limits.
     *
     * @param maxElementDepth         deepest element nesting
     * @param maxAttributesPerElement attributes on one element
     * @param maxAttributeLength      characters in one attribute value
     * @param maxTextLength           characters in one text segment
     * @param maxElementCount         elements in the document
     * @param maxDocumentChars        characters in the whole document
     */
    public record Limits(int maxElementDepth, int maxAttributesPerElement, int maxAttributeLength,
                         int maxTextLength, long maxElementCount, long maxDocumentChars) {
        public Limits {
            if (maxElementDepth < 1 || maxAttributesPerElement < 1 || maxAttributeLength < 1 || maxTextLength < 1
                    || maxElementCount < 1 || maxDocumentChars < 1) {
                throw new IllegalArgumentException("XML limits must be positive");
            }
        }

        /** Generous for SOAP messages of up to {@code maxDocumentChars} characters, tight on structure. */
        public static Limits forDocumentsUpTo(long maxDocumentChars) {
            int text = (int) Math.min(Integer.MAX_VALUE, maxDocumentChars);
            return new Limits(100, 64, 64 * 1024, text, 1_000_000, maxDocumentChars);
        }
    }

    /** Refuses every external resource: DTDs, external entities, anything a document could point at. */
    private static final XMLResolver REFUSE_ALL = (publicId, systemId, baseUri, namespace) -> {
        throw new XMLStreamException("entities and external resources are not allowed"
                + (systemId != null ? " (" + systemId + ")" : ""));
    };

    private HardenedXml() {
    }

    /** A namespace-aware, coalescing input factory with DTDs and entities off and the given limits. */
    public static XMLInputFactory inputFactory(Limits limits) {
        WstxInputFactory f = new WstxInputFactory();
        f.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, true);
        f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        // replace (i.e. refuse: none can be declared) so that an undeclared &name; is an error, not silently dropped text
        f.setProperty(XMLInputFactory.IS_REPLACING_ENTITY_REFERENCES, true);
        f.setProperty(XMLInputFactory.IS_VALIDATING, false);
        f.setProperty(XMLInputFactory.IS_COALESCING, true);
        f.setProperty(XMLInputFactory.RESOLVER, REFUSE_ALL);
        f.setProperty(WstxInputProperties.P_DTD_RESOLVER, REFUSE_ALL);
        f.setProperty(WstxInputProperties.P_ENTITY_RESOLVER, REFUSE_ALL);
        f.setProperty(WstxInputProperties.P_UNDECLARED_ENTITY_RESOLVER, REFUSE_ALL);
        f.setProperty(WstxInputProperties.P_MAX_ELEMENT_DEPTH, limits.maxElementDepth());
        f.setProperty(WstxInputProperties.P_MAX_ATTRIBUTES_PER_ELEMENT, limits.maxAttributesPerElement());
        f.setProperty(WstxInputProperties.P_MAX_ATTRIBUTE_SIZE, limits.maxAttributeLength());
        f.setProperty(WstxInputProperties.P_MAX_TEXT_LENGTH, limits.maxTextLength());
        f.setProperty(WstxInputProperties.P_MAX_ELEMENT_COUNT, limits.maxElementCount());
        f.setProperty(WstxInputProperties.P_MAX_CHARACTERS, limits.maxDocumentChars());
        return f;
    }

    /** An output factory that repairs nothing (callers declare their namespaces) and escapes '>' too. */
    public static XMLOutputFactory outputFactory() {
        WstxOutputFactory f = new WstxOutputFactory();
        f.setProperty(XMLOutputFactory.IS_REPAIRING_NAMESPACES, false);
        f.setProperty(com.ctc.wstx.api.WstxOutputProperties.P_OUTPUT_ESCAPE_CR, true);
        return f;
    }
}
