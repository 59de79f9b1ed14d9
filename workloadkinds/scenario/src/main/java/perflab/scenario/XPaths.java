package perflab.scenario;

import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

import javax.xml.xpath.XPath;
import javax.xml.xpath.XPathConstants;
import javax.xml.xpath.XPathExpression;
import javax.xml.xpath.XPathExpressionException;
import javax.xml.xpath.XPathFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * XPath expressions compiled once per session: the JDK's compiled expressions are not safe to share between
 * threads, and a session lives on one event loop.
 */
final class XPaths {
    private final XPath xpath = XPathFactory.newInstance().newXPath();
    private final Map<String, XPathExpression> compiled = new HashMap<>();

    /** Checks an expression when the file is read: the reason it does not compile, or null. */
    static String problem(String expression) {
        try {
            XPathFactory.newInstance().newXPath().compile(expression);
            return null;
        } catch (XPathExpressionException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            return String.valueOf(cause.getMessage()).lines().findFirst().orElse("not an XPath expression");
        }
    }

    /** The text of each node the expression selects (or its value, when it is a string or number). */
    List<String> values(String expression, org.w3c.dom.Document document, boolean all) {
        XPathExpression e = compiled.computeIfAbsent(expression, this::compile);
        List<String> found = new ArrayList<>();
        try {
            NodeList nodes = (NodeList) e.evaluate(document, XPathConstants.NODESET);
            for (int i = 0; i < nodes.getLength() && (all || found.isEmpty()); i++) {
                Node n = nodes.item(i);
                found.add(n.getTextContent());
            }
        } catch (XPathExpressionException notNodes) {
            try {
                String s = (String) e.evaluate(document, XPathConstants.STRING);
                if (!s.isEmpty()) {
                    found.add(s);
                }
            } catch (XPathExpressionException x) {
                throw new IllegalStateException("xpath '" + expression + "': " + x.getMessage());
            }
        }
        return found;
    }

    private XPathExpression compile(String expression) {
        try {
            return xpath.compile(expression);
        } catch (XPathExpressionException e) {
            throw new IllegalStateException("xpath '" + expression + "' does not compile", e);
        }
    }
}
