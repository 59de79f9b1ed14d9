package perflab.claims.camel;

import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.model.RouteDefinition;
import org.apache.camel.support.builder.Namespaces;
import perflab.claims.backend.GatewaySettings;
import perflab.claims.backend.MediationRules;
import perflab.claims.contract.ClaimsContract;
import perflab.core.sut.ServerMetrics;
import perflab.soap.SoapAdmission;
import perflab.soap.jetty.RequestsPerConnection;

import org.w3c.dom.Document;

/**
 * The six mediations as Camel routes, written the way a Camel user writes them: a camel-jetty consumer per
 * mediation at {@code /esb/<mediation>}, camel-xslt over the contract's stylesheet files, Camel's XPath for
 * the routing and authorization fields, camel-http to the back end. Every route starts with {@link Admission}
 * (the body read up to the size limit, the envelope opened with the hardened reader up to the payload's start
 * tag), so hostile XML never reaches a stylesheet, an XPath or a back end; every failure ends in
 * {@link FaultReply}. Routing and composite read their fields with XPath over the whole document: that is
 * Camel's content-based router, and what the lean stack's read-up-to-the-field is measured against.
 */
final class MediationRoutes extends RouteBuilder {
    static final String REGION = "claimsRegion"; // no dots: simple language reads dots as a path
    private static final String PASSWORD = "claimsPassword";
    private static final String SOAP_BODY_PAYLOAD = "/soap:Envelope/soap:Body/*/";

    private final GatewaySettings settings;
    private final int port;
    private final String backendBase;
    private final ServerMetrics metrics;
    private final Namespaces ns = new Namespaces("soap", ClaimsContract.SOAP11_NS)
            .add("c", ClaimsContract.CLAIMS_NS).add("p", ClaimsContract.PARTNER_NS);

    MediationRoutes(GatewaySettings settings, int port, String backendUrl, ServerMetrics metrics) {
        this.settings = settings;
        this.port = port;
        this.backendBase = backendUrl + ClaimsContract.BACKEND_PATH;
        this.metrics = metrics;
    }

    @Override
    public void configure() {
        SoapAdmission admission = new SoapAdmission(settings.server().maxRequestBytes());
        RequestsPerConnection connections = new RequestsPerConnection(settings.server());
        BackendAnswer answer = new BackendAnswer();
        Reply reply = new Reply(metrics);

        onException(Exception.class).handled(true).process(new FaultReply(settings, metrics));

        consumer(ClaimsContract.PASSTHROUGH)
                .process(new Admission(admission, connections, ClaimsContract.CLAIMS_NS))
                .to(backend(ClaimsContract.DEFAULT_REGION)).process(answer)
                .process(reply);

        consumer(ClaimsContract.TRANSFORM_VALUE)
                .process(new Admission(admission, connections, ClaimsContract.CLAIMS_NS))
                .to(xslt(ClaimsContract.Stylesheet.VALUE_REQUEST))
                .to(backend(ClaimsContract.DEFAULT_REGION)).process(answer)
                .process(reply);

        consumer(ClaimsContract.TRANSFORM_NAMESPACE)
                .process(new Admission(admission, connections, ClaimsContract.CLAIMS_V2_NS))
                .to(xslt(ClaimsContract.Stylesheet.NAMESPACE_REQUEST))
                .to(backend(ClaimsContract.DEFAULT_REGION)).process(answer)
                .to(xslt(ClaimsContract.Stylesheet.NAMESPACE_RESPONSE))
                .process(reply);

        // the context value is kept in an exchange property, so it never travels to the back end as a header,
        // and handed to the response stylesheet as a header (camel-xslt's way of passing parameters)
        consumer(ClaimsContract.TRANSFORM_SCHEMA)
                .process(new Admission(admission, connections, ClaimsContract.PARTNER_NS))
                .setProperty(ClaimsContract.CONTEXT_PARAM,
                        xpath(SOAP_BODY_PAYLOAD + "p:Header/p:" + ClaimsContract.CONTEXT_FIELD, String.class, ns))
                .process(e -> MediationRules.contextValue(e.getProperty(ClaimsContract.CONTEXT_PARAM, String.class)))
                .to(xslt(ClaimsContract.Stylesheet.SCHEMA_REQUEST))
                .to(backend(ClaimsContract.DEFAULT_REGION)).process(answer)
                .setHeader(ClaimsContract.CONTEXT_PARAM, exchangeProperty(ClaimsContract.CONTEXT_PARAM))
                .to(xslt(ClaimsContract.Stylesheet.SCHEMA_RESPONSE))
                .process(reply);

        // content-based routing on the original bytes, which are forwarded unchanged
        consumer(ClaimsContract.ROUTE_ON_BODY)
                .process(new Admission(admission, connections, ClaimsContract.CLAIMS_NS))
                .setProperty(REGION, xpath(SOAP_BODY_PAYLOAD + "c:" + ClaimsContract.ROUTING_FIELD, String.class, ns))
                .process(MediationRoutes::route)
                .toD(backend("${exchangeProperty." + REGION + "}")).process(answer)
                .process(reply);

        // one DOM for the two XPaths and the stylesheet, as a Camel user would (three parses otherwise)
        consumer(ClaimsContract.COMPOSITE)
                .process(new Admission(admission, connections, ClaimsContract.CLAIMS_NS))
                .convertBodyTo(Document.class)
                .setProperty(PASSWORD, xpath(SOAP_BODY_PAYLOAD + "c:credentials/c:password", String.class, ns))
                .process(e -> MediationRules.authorize(e.getProperty(PASSWORD, String.class)))
                .removeProperty(PASSWORD)
                .setProperty(REGION, xpath(SOAP_BODY_PAYLOAD + "c:" + ClaimsContract.ROUTING_FIELD, String.class, ns))
                .process(MediationRoutes::route)
                .to(xslt(ClaimsContract.Stylesheet.VALUE_REQUEST))
                .toD(backend("${exchangeProperty." + REGION + "}")).process(answer)
                .process(reply);
    }

    private static void route(Exchange exchange) throws Exception {
        exchange.setProperty(REGION, MediationRules.route(exchange.getProperty(REGION, String.class)));
    }

    private RouteDefinition consumer(String mediation) {
        return from("jetty:http://" + settings.server().host() + ":" + port
                + ClaimsContract.mediationPath(mediation) + "?disableStreamCache=true").routeId(mediation);
    }

    /** camel-http to a regional service; its answer is judged by {@link BackendAnswer}, whatever the status. */
    private String backend(String region) {
        return backendBase + region + "?throwExceptionOnFailure=false";
    }

    /** camel-xslt over the contract's stylesheet file: compiled once by the endpoint, bytes out. */
    private static String xslt(ClaimsContract.Stylesheet sheet) {
        return "xslt:classpath:" + ClaimsContract.class.getPackageName().replace('.', '/') + "/xslt/" + sheet.file()
                + "?output=bytes&transformerFactory=#" + CamelGateway.XSLT_FACTORY;
    }

    /** Every exchange's start, for the server-side metrics. */
    static long startNanos(Exchange exchange) {
        Long start = exchange.getProperty(Admission.START, Long.class);
        return start == null ? System.nanoTime() : start;
    }
}
