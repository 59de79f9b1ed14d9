package perflab.voicemail;

import perflab.core.workload.Companion;
import perflab.core.workload.SutInstances;

import java.util.ArrayList;
import java.util.List;

/**
 * The converged proxy in front of voicemail's instances (`--instances N`): haproxy for the web pages, Kamailio for
 * SIP, started by perflab as program companions on loopback ports it chooses. Both send a user to the same instance,
 * its home: the user's number mod N ({@code u0000042} -> 42 mod N). haproxy reads it from the page's path
 * ({@code /voicemail/users/u0000042/...}); Kamailio from the Request-URI of the peers' requests in the user's
 * dialogs, whose user part is the user id (the instance's Contact for that user). Their configurations live beside
 * this workload in {@code workloads/voicemail/proxy/}: each script writes its file into the run directory from the
 * instances' ports and becomes the proxy in the foreground.
 */
final class ClusterRoutes {
    static final String HTTP_PROXY = "http-proxy";
    static final String SIP_PROXY = "sip-proxy";
    private static final String DIR = "workloads/voicemail/proxy/";

    private ClusterRoutes() {
    }

    /** The two proxies, started after the instances (they name the instances' ports). */
    static List<Companion> proxies(int instances) {
        List<String> http = new ArrayList<>(List.of(DIR + "haproxy.sh", "{" + HTTP_PROXY + ".port}"));
        List<String> sip = new ArrayList<>(List.of(DIR + "kamailio.sh", "{" + SIP_PROXY + ".port}"));
        for (String instance : SutInstances.names(instances)) {
            http.add("{" + instance + ".port}");
            sip.add("{" + instance + ".sip}");
        }
        return List.of(
                Companion.program(SIP_PROXY, sip, Companion.Start.AFTER_SUT, null).listening("port").sampledAsTree(),
                Companion.program(HTTP_PROXY, http, Companion.Start.AFTER_SUT, null).listening("port"));
    }
}
