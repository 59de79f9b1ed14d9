package perflab.claims.lean;

import com.ctc.wstx.exc.WstxLazyException;
import perflab.claims.backend.MediationRules;
import perflab.claims.contract.ClaimsContract;
import perflab.soap.SoapAdmission;
import perflab.soap.SoapEnvelopeReader;
import perflab.soap.SoapFault;

import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import javax.xml.transform.TransformerException;

/**
 * What each of the six mediations does, apart from any server: which mediation a path names, what goes to
 * which back end for an admitted request, and what becomes of the back end's answer. Every envelope is opened
 * with the hardened reader first; then a mediation reads only what it needs: nothing more (passthrough), up to
 * the routing field (route-on-body, composite), or all of it through a stylesheet (transforms).
 */
final class MediationPlan {
    enum Mediation { PASSTHROUGH, TRANSFORM_VALUE, TRANSFORM_NAMESPACE, TRANSFORM_SCHEMA, ROUTE_ON_BODY, COMPOSITE }

    /**
     * What goes to the back end, and what to do with its answer.
     *
     * @param length the body's length, or -1 when all of {@code body} is sent
     */
    record Outbound(String region, byte[] body, int length, ClaimsContract.Stylesheet responseSheet,
                    String contextValue) {
        int bodyLength() {
            return length < 0 ? body.length : length;
        }
    }

    private final SoapEnvelopeReader envelopes;
    private final Stylesheets stylesheets;

    MediationPlan(SoapAdmission admission) {
        this.envelopes = admission.envelopes();
        this.stylesheets = new Stylesheets(admission.inputFactory());
    }

    /** The mediation at {@code path}, or null where there is none. */
    static Mediation mediation(String path) {
        if (!path.startsWith(ClaimsContract.GATEWAY_PATH)) {
            return null;
        }
        return switch (path.substring(ClaimsContract.GATEWAY_PATH.length())) {
            case ClaimsContract.PASSTHROUGH -> Mediation.PASSTHROUGH;
            case ClaimsContract.TRANSFORM_VALUE -> Mediation.TRANSFORM_VALUE;
            case ClaimsContract.TRANSFORM_NAMESPACE -> Mediation.TRANSFORM_NAMESPACE;
            case ClaimsContract.TRANSFORM_SCHEMA -> Mediation.TRANSFORM_SCHEMA;
            case ClaimsContract.ROUTE_ON_BODY -> Mediation.ROUTE_ON_BODY;
            case ClaimsContract.COMPOSITE -> Mediation.COMPOSITE;
            default -> null;
        };
    }

    /** The request for the back end that an admitted envelope in {@code body[0, length)} becomes. */
    Outbound mediate(Mediation mediation, byte[] body, int length) throws SoapFault {
        try (SoapEnvelopeReader.Envelope envelope = envelopes.open(body, length)) {
            XMLStreamReader payload = envelope.reader();
            switch (mediation) {
                case PASSTHROUGH:
                    return new Outbound(ClaimsContract.DEFAULT_REGION, body, length, null, null);
                case TRANSFORM_VALUE:
                    expect(payload, ClaimsContract.CLAIMS_NS);
                    return new Outbound(ClaimsContract.DEFAULT_REGION,
                            transform(ClaimsContract.Stylesheet.VALUE_REQUEST, body, length, null), -1, null, null);
                case TRANSFORM_NAMESPACE:
                    expect(payload, ClaimsContract.CLAIMS_V2_NS);
                    return new Outbound(ClaimsContract.DEFAULT_REGION,
                            transform(ClaimsContract.Stylesheet.NAMESPACE_REQUEST, body, length, null), -1,
                            ClaimsContract.Stylesheet.NAMESPACE_RESPONSE, null);
                case TRANSFORM_SCHEMA: {
                    expect(payload, ClaimsContract.PARTNER_NS);
                    String context = MediationRules.contextValue(
                            scan(payload, ClaimsContract.PARTNER_NS, ClaimsContract.CONTEXT_FIELD)[0]);
                    return new Outbound(ClaimsContract.DEFAULT_REGION,
                            transform(ClaimsContract.Stylesheet.SCHEMA_REQUEST, body, length, null), -1,
                            ClaimsContract.Stylesheet.SCHEMA_RESPONSE, context);
                }
                case ROUTE_ON_BODY: {
                    expect(payload, ClaimsContract.CLAIMS_NS);
                    String region = MediationRules.route(scan(payload, ClaimsContract.CLAIMS_NS, ClaimsContract.ROUTING_FIELD)[0]);
                    return new Outbound(region, body, length, null, null);
                }
                default: {
                    expect(payload, ClaimsContract.CLAIMS_NS);
                    String[] found = scan(payload, ClaimsContract.CLAIMS_NS, "password", ClaimsContract.ROUTING_FIELD);
                    MediationRules.authorize(found[0]);
                    String region = MediationRules.route(found[1]);
                    return new Outbound(region, transform(ClaimsContract.Stylesheet.VALUE_REQUEST, body, length, null),
                            -1, null, null);
                }
            }
        }
    }

    /** The back end's successful answer as the client gets it: through the response stylesheet, if any. */
    byte[] answer(Outbound out, byte[] backendAnswer) throws SoapFault {
        if (out.responseSheet() == null) {
            return backendAnswer;
        }
        return transform(out.responseSheet(), backendAnswer, backendAnswer.length, out.contextValue());
    }

    private static void expect(XMLStreamReader payload, String namespace) throws SoapFault {
        MediationRules.expectNamespace(namespace, payload.getNamespaceURI(), payload.getLocalName());
    }

    /**
     * Reads on from the payload's start tag only until every named element (in {@code ns}) has been seen; returns
     * their texts in the order asked (null for one not found before the payload ended).
     */
    private static String[] scan(XMLStreamReader in, String ns, String... names) throws SoapFault {
        String[] found = new String[names.length];
        int missing = names.length;
        try {
            int depth = 1;
            while (depth > 0 && missing > 0) {
                int event = in.next();
                if (event == XMLStreamConstants.START_ELEMENT) {
                    int i = indexOf(names, in.getLocalName());
                    if (i >= 0 && found[i] == null && ns.equals(in.getNamespaceURI())) {
                        found[i] = in.getElementText().trim();
                        missing--;
                    } else {
                        depth++;
                    }
                } else if (event == XMLStreamConstants.END_ELEMENT) {
                    depth--;
                } else if (event == XMLStreamConstants.ENTITY_REFERENCE || event == XMLStreamConstants.DTD) {
                    throw SoapFault.client("entities are not allowed");
                }
            }
        } catch (XMLStreamException | WstxLazyException e) {
            throw SoapEnvelopeReader.malformed(e);
        }
        return found;
    }

    private static int indexOf(String[] names, String name) {
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(name)) {
                return i;
            }
        }
        return -1;
    }

    private byte[] transform(ClaimsContract.Stylesheet sheet, byte[] body, int length, String context) throws SoapFault {
        try {
            return stylesheets.transform(sheet, body, length, context);
        } catch (XMLStreamException | WstxLazyException e) {
            throw SoapEnvelopeReader.malformed(e);
        } catch (TransformerException e) {
            Throwable cause = e.getException() != null ? e.getException() : e.getCause();
            if (cause instanceof XMLStreamException || cause instanceof WstxLazyException) {
                throw SoapEnvelopeReader.malformed((Exception) cause);
            }
            // the stylesheets are fixed and tested: a failure is the input's (XSLTC wraps the parser's error)
            String message = String.valueOf(e.getMessage());
            int wrapped = message.lastIndexOf("Exception: ");
            throw SoapFault.client("malformed XML: " + (wrapped >= 0 ? message.substring(wrapped + 11) : message).trim(), e);
        }
    }
}
