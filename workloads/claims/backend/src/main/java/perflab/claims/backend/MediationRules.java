package perflab.claims.backend;

import perflab.claims.contract.ClaimsContract;
import perflab.soap.SoapFault;

/**
 * The decisions a claims gateway makes on what it read from a message, the same in every gateway stack: where
 * a routing field sends it, whether composite's credentials pass, what a message in the wrong schema is told.
 * How a stack reads those fields (StAX up to the field, an XPath over the document) is its own business.
 */
public final class MediationRules {
    private MediationRules() {
    }

    /** The region a routing field names, or a Client fault for none or an unknown one. */
    public static String route(String region) throws SoapFault {
        if (region == null || region.isEmpty()) {
            throw SoapFault.client("no " + ClaimsContract.ROUTING_FIELD + " to route on in the request");
        }
        if (!ClaimsContract.isRegion(region)) {
            throw SoapFault.client("no ClaimServices for region '" + region + "'; known: " + ClaimsContract.REGIONS);
        }
        return region;
    }

    /** composite's authorization: a Client fault unless the password is the right one (no back end is called). */
    public static void authorize(String password) throws SoapFault {
        if (!ClaimsContract.PASSWORD.equals(password)) {
            throw SoapFault.client(password == null || password.isEmpty() ? "not authorized: the request carries no password"
                    : "not authorized: wrong password");
        }
    }

    /** A Client fault unless the payload's namespace is the one the mediation takes. */
    public static void expectNamespace(String expected, String namespace, String localName) throws SoapFault {
        if (!expected.equals(namespace)) {
            throw SoapFault.client("this mediation takes messages in " + expected + ", not {" + namespace + "}" + localName);
        }
    }

    /** transform-schema's context value must be there: it is the only way the answer gets it. */
    public static String contextValue(String value) throws SoapFault {
        if (value == null || value.isEmpty()) {
            throw SoapFault.client("the partner message has no " + ClaimsContract.CONTEXT_FIELD);
        }
        return value;
    }
}
