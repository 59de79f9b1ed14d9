package perflab.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import perflab.core.traffic.ResponseView;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayInputStream;

/**
 * One response read as the checks and extractions of its step need it: as text, as an HTML document, a JSON tree or
 * an XML document, each made once and only when asked (a step that only scans bytes never parses). The XML parser
 * is the JDK's with DOCTYPEs refused: a response is input from a server, and a hostile one must not read files or
 * grow entities. One session's, reset for each response.
 */
final class ResponseReading {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ResponseView response;
    private String text;
    private org.jsoup.nodes.Document html;
    private JsonNode json;
    private boolean jsonRead;
    private org.w3c.dom.Document xml;
    private String xmlError;
    private DocumentBuilder builder;

    ResponseReading of(ResponseView response) {
        this.response = response;
        text = null;
        html = null;
        json = null;
        jsonRead = false;
        xml = null;
        xmlError = null;
        return this;
    }

    ResponseView response() {
        return response;
    }

    String text() {
        if (text == null) {
            text = response.bodyText();
        }
        return text;
    }

    org.jsoup.nodes.Document html() {
        if (html == null) {
            html = org.jsoup.Jsoup.parse(text());
        }
        return html;
    }

    /** The body as JSON, or null when it is not JSON. */
    JsonNode json() {
        if (!jsonRead) {
            jsonRead = true;
            try {
                json = JSON.readTree(response.bodyBytes());
            } catch (java.io.IOException e) {
                json = null;
            }
        }
        return json;
    }

    /** The body as XML; IllegalStateException with the parser's reason when it is not XML. */
    org.w3c.dom.Document xml() {
        if (xml == null && xmlError == null) {
            try {
                xml = builder().parse(new ByteArrayInputStream(response.bodyBytes()));
            } catch (Exception e) {
                xmlError = String.valueOf(e.getMessage()).lines().findFirst().orElse("not XML");
            }
        }
        if (xml == null) {
            throw new IllegalStateException("the response is not XML: " + xmlError);
        }
        return xml;
    }

    private DocumentBuilder builder() throws javax.xml.parsers.ParserConfigurationException {
        if (builder == null) {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setNamespaceAware(true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setXIncludeAware(false);
            f.setExpandEntityReferences(false);
            builder = f.newDocumentBuilder();
            builder.setErrorHandler(null);
        }
        return builder;
    }
}
