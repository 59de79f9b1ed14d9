package perflab.soap;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HardenedXmlTest {
    private static final XMLInputFactory FACTORY = HardenedXml.inputFactory(HardenedXml.Limits.forDocumentsUpTo(1 << 20));
    private static final String SECRET = "TOP-SECRET-CONTENT-42";

    /** Reads every event the way a careless consumer would, collecting all text it is given. */
    private static String drain(String xml) throws XMLStreamException {
        XMLStreamReader reader = FACTORY.createXMLStreamReader(new StringReader(xml));
        StringBuilder text = new StringBuilder();
        while (reader.hasNext()) {
            int event = reader.next();
            if (reader.hasText()) {
                text.append(reader.getText());
            }
        }
        return text.toString();
    }

    @Test
    void externalEntityIsNeverResolved(@TempDir Path dir) throws Exception {
        Path secret = dir.resolve("secret.txt");
        Files.writeString(secret, SECRET);
        String xml = "<?xml version=\"1.0\"?><!DOCTYPE r [<!ENTITY xxe SYSTEM \"" + secret.toUri() + "\">]><r>&xxe;</r>";
        String seen;
        try {
            seen = drain(xml);
        } catch (XMLStreamException | RuntimeException refused) {
            seen = String.valueOf(refused.getMessage());
        }
        assertFalse(seen.contains(SECRET), "the file's content leaked: " + seen);
    }

    @Test
    void externalDtdIsNeverFetched(@TempDir Path dir) throws Exception {
        Path dtd = dir.resolve("evil.dtd");
        Files.writeString(dtd, "<!ENTITY leak \"" + SECRET + "\">");
        String xml = "<!DOCTYPE r SYSTEM \"" + dtd.toUri() + "\"><r>&leak;</r>";
        String seen;
        try {
            seen = drain(xml);
        } catch (XMLStreamException | RuntimeException refused) {
            seen = String.valueOf(refused.getMessage());
        }
        assertFalse(seen.contains(SECRET), "the DTD was read: " + seen);
    }

    @Test
    void billionLaughsDoesNotExpand() {
        StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?><!DOCTYPE lolz [<!ENTITY lol \"lol\">");
        xml.append("<!ENTITY lol1 \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">");
        for (int i = 2; i <= 9; i++) {
            xml.append("<!ENTITY lol").append(i).append(" \"");
            for (int j = 0; j < 10; j++) {
                xml.append("&lol").append(i - 1).append(';');
            }
            xml.append("\">");
        }
        xml.append("]><lolz>&lol9;</lolz>");
        // a hang guard, not a speed target: refused takes milliseconds, expanded (10^9 "lol"s) takes minutes
        String seen = assertTimeoutPreemptively(java.time.Duration.ofSeconds(30), () -> {
            try {
                return drain(xml.toString());
            } catch (XMLStreamException | RuntimeException refused) {
                return "";
            }
        });
        assertTrue(seen.length() < 10_000, "entities were expanded to " + seen.length() + " characters");
    }

    @Test
    void undeclaredEntityIsAnErrorNotDroppedText() {
        // Woodstox may report this lazily, as an unchecked WstxLazyException from getText()
        assertThrows(Exception.class, () -> drain("<r>a&undeclared;b</r>"));
    }

    @Test
    void internalSubsetEntitiesAreNotExpanded() throws Exception {
        String seen;
        try {
            seen = drain("<!DOCTYPE r [<!ENTITY e \"EXPANDED\">]><r>&e;</r>");
        } catch (XMLStreamException | RuntimeException refused) {
            seen = "";
        }
        assertFalse(seen.contains("EXPANDED"), seen);
    }

    @Test
    void oversizeDocumentIsRefused() {
        XMLInputFactory small = HardenedXml.inputFactory(HardenedXml.Limits.forDocumentsUpTo(1000));
        String xml = "<r>" + "x".repeat(5000) + "</r>";
        assertThrows(XMLStreamException.class, () -> {
            XMLStreamReader reader = small.createXMLStreamReader(new StringReader(xml));
            while (reader.hasNext()) {
                reader.next();
            }
        });
    }

    @Test
    void deepNestingIsRefused() {
        String xml = "<a>".repeat(500) + "</a>".repeat(500);
        assertThrows(XMLStreamException.class, () -> drain(xml));
    }

    @Test
    void predefinedEntitiesStillWork() throws Exception {
        String text = "a&b<c>d\"e'".repeat(20_000);
        String xml = "<r>" + text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                .replace("\"", "&quot;").replace("'", "&apos;") + "</r>";
        assertEquals(text, drain(xml));
    }

    @Test
    void utf8BytesParse() throws Exception {
        byte[] xml = "<r>h\u00e9llo \u20ac</r>".getBytes(StandardCharsets.UTF_8);
        XMLStreamReader reader = FACTORY.createXMLStreamReader(new java.io.ByteArrayInputStream(xml));
        reader.nextTag();
        assertEquals("h\u00e9llo \u20ac", reader.getElementText());
    }
}
