package perflab.claims.contract;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMResult;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.Schema;
import javax.xml.validation.SchemaFactory;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ClaimMessagesTest {
    private static final int[] SIZES = {3 * 1024, 10 * 1024, 100 * 1024};

    static Document parse(String xml) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    }

    static Element payload(Document envelope) {
        Node body = envelope.getDocumentElement().getFirstChild();
        return (Element) body.getFirstChild();
    }

    static Schema schema(String name) throws Exception {
        SchemaFactory f = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI);
        return f.newSchema(ClaimsContract.class.getResource(name));
    }

    @Test
    void requestsHaveTheAskedSizeByRepeatingLinesAndNotesAndFollowTheirSchema() throws Exception {
        for (ClaimMessages.Dialect dialect : ClaimMessages.Dialect.values()) {
            Schema schema = schema(switch (dialect) {
                case CLAIMS -> ClaimsContract.CLAIMS_SCHEMA;
                case CLAIMS_V2 -> ClaimsContract.CLAIMS_V2_SCHEMA;
                case PARTNER -> ClaimsContract.PARTNER_SCHEMA;
            });
            for (int size : SIZES) {
                ClaimMessages.Request r = ClaimMessages.build(ClaimMessages.Spec.of(ClaimsContract.CREATE_CLAIM, dialect, size, 3072)
                        .withRegion(dialect == ClaimMessages.Dialect.PARTNER ? null : "south", ClaimMessages.RoutingPosition.LATE)
                        .withPassword(dialect == ClaimMessages.Dialect.PARTNER ? null : ClaimsContract.PASSWORD));
                String xml = r.withId(4711);
                int bytes = xml.getBytes(StandardCharsets.UTF_8).length;
                assertTrue(bytes <= size && bytes > size - 300, dialect + " " + size + ": " + bytes + " bytes");
                assertTrue(r.lines() >= 2 * (r.notes() - 1), r.lines() + " lines, " + r.notes() + " notes");
                schema.newValidator().validate(new DOMSource(payload(parse(xml))));
            }
        }
    }

    @Test
    void stylesheetsMapRequestsIntoClaimServicesSchema() throws Exception {
        Schema v1 = schema(ClaimsContract.CLAIMS_SCHEMA);
        TransformerFactory tf = TransformerFactory.newInstance();
        record Case(ClaimsContract.Stylesheet sheet, ClaimMessages.Dialect dialect) {
        }
        for (Case c : new Case[] {new Case(ClaimsContract.Stylesheet.VALUE_REQUEST, ClaimMessages.Dialect.CLAIMS),
                new Case(ClaimsContract.Stylesheet.NAMESPACE_REQUEST, ClaimMessages.Dialect.CLAIMS_V2),
                new Case(ClaimsContract.Stylesheet.SCHEMA_REQUEST, ClaimMessages.Dialect.PARTNER)}) {
            Transformer t = tf.newTemplates(new StreamSource(c.sheet().url().toString())).newTransformer();
            ClaimMessages.Spec spec = ClaimMessages.Spec.of(ClaimsContract.CREATE_CLAIM, c.dialect(), 10 * 1024, 3072);
            if (c.dialect() == ClaimMessages.Dialect.CLAIMS) {
                spec = spec.withPassword(ClaimsContract.PASSWORD).withRegion("west", ClaimMessages.RoutingPosition.EARLY);
            }
            ClaimMessages.Request r = ClaimMessages.build(spec);
            DOMResult out = new DOMResult();
            t.transform(new DOMSource(parse(r.withId(99))), out);
            Element payload = payload((Document) out.getNode());
            assertEquals(ClaimsContract.CLAIMS_NS, payload.getNamespaceURI(), c.sheet().name());
            v1.newValidator().validate(new DOMSource(payload));
            assertEquals(r.lines(), payload.getElementsByTagNameNS(ClaimsContract.CLAIMS_NS, "line").getLength());
            assertEquals(r.notes(), payload.getElementsByTagNameNS(ClaimsContract.CLAIMS_NS, "note").getLength());
            String channel = payload.getElementsByTagNameNS(ClaimsContract.CLAIMS_NS, "channel").item(0).getTextContent();
            switch (c.sheet()) {
                case VALUE_REQUEST -> {
                    assertEquals("esb/web", channel);
                    assertEquals(0, payload.getElementsByTagNameNS(ClaimsContract.CLAIMS_NS, "credentials").getLength());
                }
                case NAMESPACE_REQUEST -> assertEquals("web", channel);
                default -> {
                    assertEquals("partner:broker-17", channel);
                    assertEquals(r.messageId(), payload.getElementsByTagNameNS(ClaimsContract.CLAIMS_NS, "requestId").item(0).getTextContent());
                }
            }
        }
    }
}
