package perflab.claims.contract;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.List;
import java.util.Locale;

/**
 * The facts of the claims workload shared by the traffic, the ClaimServices back end and every gateway stack:
 * namespaces, operation and mediation names, paths, regions and the resources beside this class (WSDL, the
 * three schemas, the mediation stylesheets).
 */
public final class ClaimsContract {
    public static final String SOAP11_NS = "http://schemas.xmlsoap.org/soap/envelope/";
    /** ClaimServices' own schema: what the back ends speak. */
    public static final String CLAIMS_NS = "urn:perflab:claims:v1";
    /** transform-namespace's client schema: CLAIMS_NS with another namespace and policyNumber named policyId. */
    public static final String CLAIMS_V2_NS = "urn:perflab:claims:v2";
    /** transform-schema's client schema: a partner's first-notice-of-loss format, the same data shaped differently. */
    public static final String PARTNER_NS = "urn:perflab:partner:fnol";

    // ClaimServices operations (request element = name, response element = name + "Response")
    public static final String CREATE_CLAIM = "createClaim";
    public static final String UPDATE_CLAIM = "updateClaim";
    public static final String APPROVE_CLAIM = "approveClaim";
    public static final String DENY_CLAIM = "denyClaim";
    public static final String CHECK_COVERAGE = "checkCoverage";
    public static final String LIST_REPAIR_SHOPS = "listRepairShops";
    public static final String SELECT_REPAIR_SHOP = "selectRepairShop";
    public static final String INFORM_CUSTOMER = "informCustomer";
    public static final List<String> OPERATIONS = List.of(CREATE_CLAIM, UPDATE_CLAIM, APPROVE_CLAIM, DENY_CLAIM,
            CHECK_COVERAGE, LIST_REPAIR_SHOPS, SELECT_REPAIR_SHOP, INFORM_CUSTOMER);
    public static final String RESPONSE_SUFFIX = "Response";

    // the gateway's mediations, one endpoint each under GATEWAY_PATH
    public static final String PASSTHROUGH = "passthrough";
    public static final String TRANSFORM_VALUE = "transform-value";
    public static final String TRANSFORM_NAMESPACE = "transform-namespace";
    public static final String TRANSFORM_SCHEMA = "transform-schema";
    public static final String ROUTE_ON_BODY = "route-on-body";
    public static final String COMPOSITE = "composite";
    public static final List<String> MEDIATIONS = List.of(PASSTHROUGH, TRANSFORM_VALUE, TRANSFORM_NAMESPACE,
            TRANSFORM_SCHEMA, ROUTE_ON_BODY, COMPOSITE);

    /** The gateway's base path; a mediation's endpoint is GATEWAY_PATH + mediation name. */
    public static final String GATEWAY_PATH = "/esb/";
    /** The back end's base path; a regional ClaimServices endpoint is BACKEND_PATH + region. */
    public static final String BACKEND_PATH = "/ClaimServices/";
    /** The regional ClaimServices: routing's destinations; the first is where non-routing mediations go. */
    public static final List<String> REGIONS = List.of("north", "south", "west");
    public static final String DEFAULT_REGION = "north";

    /** The routing field (a CLAIMS_NS element of the operation's payload). */
    public static final String ROUTING_FIELD = "region";
    /** The value transform: channel "web" arrives at the back end as VALUE_PREFIX + "web". */
    public static final String VALUE_FIELD = "channel";
    public static final String VALUE_PREFIX = "esb/";
    /** composite's authorization: the password field under credentials must hold this. */
    public static final String PASSWORD = "claims-s3cret";
    /** transform-schema's context value: a partner request element carried to the response outside the back end. */
    public static final String CONTEXT_FIELD = "TrackingRef";
    /** The stylesheet parameter the context value reaches the response stylesheet through. */
    public static final String CONTEXT_PARAM = "trackingRef";

    /** Back-end test hooks in the policy number: a SOAP fault, or a delay before answering (milliseconds). */
    public static final String FAULT_POLICY_PREFIX = "POL-FAULT";
    public static final String SLOW_POLICY_PREFIX = "POL-SLOW-";

    /** The stylesheets (resources under xslt/); Templates are compiled once by each gateway. */
    public enum Stylesheet {
        /** transform-value and composite, request: channel gets the "esb/" prefix, credentials are dropped. */
        VALUE_REQUEST("value-request.xsl"),
        NAMESPACE_REQUEST("namespace-request.xsl"),
        NAMESPACE_RESPONSE("namespace-response.xsl"),
        SCHEMA_REQUEST("schema-request.xsl"),
        /** Takes the context value as parameter {@link #CONTEXT_PARAM}. */
        SCHEMA_RESPONSE("schema-response.xsl");

        private final String file;

        Stylesheet(String file) {
            this.file = file;
        }

        public String file() {
            return file;
        }

        public URL url() {
            URL url = ClaimsContract.class.getResource("xslt/" + file);
            if (url == null) {
                throw new IllegalStateException("stylesheet xslt/" + file + " is missing from the claims contract");
            }
            return url;
        }
    }

    public static final String WSDL_RESOURCE = "ClaimServices.wsdl";
    public static final String CLAIMS_SCHEMA = "claims-v1.xsd";
    public static final String CLAIMS_V2_SCHEMA = "claims-v2.xsd";
    public static final String PARTNER_SCHEMA = "partner-fnol.xsd";

    private ClaimsContract() {
    }

    public static String serviceName(String region) {
        return "claims-" + region;
    }

    public static boolean isRegion(String value) {
        return REGIONS.contains(value);
    }

    public static String mediationPath(String mediation) {
        return GATEWAY_PATH + mediation;
    }

    /**
     * The back end's JVM flags unless told otherwise. The back end is part of the lab, not of what is measured,
     * so it must cost the same in every run. Without this flag its cost was bimodal on a 2-CPU machine: many
     * request threads running interpreted code starve the C2 compiler thread, a hot method (Woodstox's
     * UTF8Reader.read) waited in the compile queue for the whole run, and the back end cost 6x more per
     * request in about 40% of runs (docs/workloads/claims.md). With background compilation off, a thread that
     * asks for a compilation waits for it, so the compilers get the CPU when they are needed.
     */
    public static final String DEFAULT_BACKEND_JVM = "-XX:-BackgroundCompilation";

    /** Parses a message size such as 3k, 10k, 100k, 3072 into bytes. */
    public static int parseSize(String name, String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        int shift = 0;
        if (t.endsWith("kb")) {
            t = t.substring(0, t.length() - 2);
            shift = 10;
        } else if (t.endsWith("k")) {
            t = t.substring(0, t.length() - 1);
            shift = 10;
        } else if (t.endsWith("m")) {
            t = t.substring(0, t.length() - 1);
            shift = 20;
        }
        long value;
        try {
            value = Long.parseLong(t.trim()) << shift;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + ": '" + text + "' is not a size; use e.g. 3k, 10k, 100k");
        }
        if (value < MessageSizes.MIN_BYTES || value > MessageSizes.MAX_BYTES) {
            throw new IllegalArgumentException(name + " must be within " + (MessageSizes.MIN_BYTES / 1024) + "k.."
                    + (MessageSizes.MAX_BYTES >> 20) + "m, got '" + text + "'");
        }
        return (int) value;
    }

    public static byte[] resourceBytes(String name) {
        try (InputStream in = ClaimsContract.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException(name + " is missing from the claims contract");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
