package perflab.claims;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import perflab.claims.contract.ClaimMessages;
import perflab.claims.contract.ClaimsContract;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import java.io.ByteArrayInputStream;

/**
 * The deep check of one mediation's answer, on the parsed XML: the response is in the client's schema (every
 * element of the payload in its namespace), and what the back end says it received shows that the request
 * was mediated (transformed value, namespace, lines and notes all arrived, credentials dropped, the right
 * back end); the response side carried everything back (item counts, renamed element, context value).
 */
public final class ExpectedAnswer {
    private final String mediation;
    private final ClaimMessages.Request request;
    private final String service;

    public ExpectedAnswer(String mediation, ClaimMessages.Request request, String service) {
        this.mediation = mediation;
        this.request = request;
        this.service = service;
    }

    static DocumentBuilder newBuilder() {
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newDefaultInstance();
            f.setNamespaceAware(true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setExpandEntityReferences(false);
            return f.newDocumentBuilder();
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The payload (the Body's first element) of a SOAP envelope. */
    public static Element payload(byte[] envelope) throws Exception {
        Document doc = newBuilder().parse(new ByteArrayInputStream(envelope));
        Element root = doc.getDocumentElement();
        if (!"Envelope".equals(root.getLocalName()) || !ClaimsContract.SOAP11_NS.equals(root.getNamespaceURI())) {
            throw new IllegalArgumentException("not a SOAP 1.1 envelope: " + root.getNodeName());
        }
        Element body = firstElement(root);
        if (body != null && "Header".equals(body.getLocalName())) {
            body = nextElement(body);
        }
        if (body == null || !"Body".equals(body.getLocalName())) {
            throw new IllegalArgumentException("no SOAP Body");
        }
        Element payload = firstElement(body);
        if (payload == null) {
            throw new IllegalArgumentException("empty SOAP Body");
        }
        return payload;
    }

    /** Null when the answer is right for request id {@code id}, else what is wrong. */
    public String mismatch(byte[] body, long id) {
        try {
            Element p = payload(body);
            boolean partner = request.spec().dialect() == ClaimMessages.Dialect.PARTNER;
            String ns = request.spec().dialect().namespace;
            String root = partner ? "FirstNoticeOfLossAck" : request.spec().operation() + ClaimsContract.RESPONSE_SUFFIX;
            if (!root.equals(p.getLocalName()) || !ns.equals(p.getNamespaceURI())) {
                return "the answer is {" + p.getNamespaceURI() + "}" + p.getLocalName() + ", expected {" + ns + "}" + root;
            }
            String foreign = foreignElement(p, ns);
            if (foreign != null) {
                return "element " + foreign + " is not in " + ns;
            }
            return partner ? partnerMismatch(p, id, ns) : claimsMismatch(p, id, ns);
        } catch (Exception e) {
            return "the answer does not parse: " + e.getMessage();
        }
    }

    private String claimsMismatch(Element p, long id, String ns) {
        String problem = expect(text(p, ns, "requestId"), ClaimMessages.id(id), "requestId");
        Element received = child(p, ns, "received");
        if (problem == null && received == null) {
            problem = "no received block";
        }
        String channel = switch (mediation) {
            case ClaimsContract.TRANSFORM_VALUE, ClaimsContract.COMPOSITE -> ClaimsContract.VALUE_PREFIX + request.channel();
            default -> request.channel();
        };
        if (problem == null) {
            problem = firstOf(expect(text(received, ns, "service"), service, "service"),
                    expect(text(received, ns, "operation"), request.spec().operation(), "operation"),
                    expect(text(received, ns, "namespace"), ClaimsContract.CLAIMS_NS, "namespace seen by the back end"),
                    expect(text(received, ns, "channel"), channel, "channel seen by the back end"),
                    expect(text(received, ns, "credentials"), request.spec().password() == null
                            || !ClaimsContract.COMPOSITE.equals(mediation) && !ClaimsContract.TRANSFORM_VALUE.equals(mediation)
                            ? (request.spec().password() == null ? "absent" : "present") : "absent", "credentials seen by the back end"),
                    expect(text(received, ns, "lines"), Integer.toString(request.lines()), "lines seen by the back end"),
                    expect(text(received, ns, "notes"), Integer.toString(request.notes()), "notes seen by the back end"));
        }
        if (problem == null) {
            String policyElement = request.spec().dialect().policyElement;
            problem = expect(text(p, ns, policyElement), request.spec().policyNumber(), policyElement);
        }
        if (problem == null) {
            problem = items(p, ns, text(p, ns, "itemCount"));
        }
        return problem;
    }

    private String partnerMismatch(Element p, long id, String ns) {
        Element handled = child(p, ns, "HandledBy");
        Element claim = child(p, ns, "ClaimRef");
        Element trail = child(p, ns, "Trail");
        if (handled == null || claim == null || trail == null) {
            return "the acknowledgement lacks HandledBy, ClaimRef or Trail";
        }
        return firstOf(expect(text(p, ns, "TrackingRef"), ClaimMessages.id(id), "TrackingRef (the context value)"),
                expect(handled.getAttribute("service"), service, "service"),
                expect(handled.getAttribute("messageId"), request.messageId(), "messageId seen by the back end"),
                expect(handled.getAttribute("channel"), request.channel(), "channel seen by the back end"),
                expect(handled.getAttribute("namespace"), ClaimsContract.CLAIMS_NS, "namespace seen by the back end"),
                expect(handled.getAttribute("items"), Integer.toString(request.lines()), "damage items seen by the back end"),
                expect(handled.getAttribute("remarks"), Integer.toString(request.notes()), "remarks seen by the back end"),
                expect(claim.getAttribute("policy"), request.spec().policyNumber(), "policy"),
                expect(claim.getAttribute("state"), "OPEN", "state"),
                expect(Integer.toString(trail.getElementsByTagNameNS(ns, "Step").getLength()), trail.getAttribute("count"),
                        "Trail steps against its count"));
    }

    private static String items(Element p, String ns, String count) {
        int entries = p.getElementsByTagNameNS(ns, "entry").getLength() + p.getElementsByTagNameNS(ns, "repairShop").getLength();
        if (entries < 1 || !Integer.toString(entries).equals(count)) {
            return entries + " history entries or repair shops, itemCount says " + count;
        }
        return null;
    }

    private static String foreignElement(Element e, String ns) {
        for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element child) {
                if (!ns.equals(child.getNamespaceURI())) {
                    return "{" + child.getNamespaceURI() + "}" + child.getLocalName();
                }
                String deeper = foreignElement(child, ns);
                if (deeper != null) {
                    return deeper;
                }
            }
        }
        return null;
    }

    private static String firstOf(String... problems) {
        for (String p : problems) {
            if (p != null) {
                return p;
            }
        }
        return null;
    }

    private static String expect(String actual, String expected, String what) {
        return expected.equals(actual) ? null : what + " is '" + actual + "', expected '" + expected + "'";
    }

    static Element child(Element parent, String ns, String name) {
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && name.equals(e.getLocalName()) && ns.equals(e.getNamespaceURI())) {
                return e;
            }
        }
        return null;
    }

    static String text(Element parent, String ns, String name) {
        Element e = child(parent, ns, name);
        return e == null ? null : e.getTextContent();
    }

    private static Element firstElement(Node parent) {
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e) {
                return e;
            }
        }
        return null;
    }

    private static Element nextElement(Node node) {
        for (Node n = node.getNextSibling(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e) {
                return e;
            }
        }
        return null;
    }

    static int count(NodeList list) {
        return list.getLength();
    }
}
