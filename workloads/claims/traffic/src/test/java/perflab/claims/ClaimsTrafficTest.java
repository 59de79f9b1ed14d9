package perflab.claims;

import org.junit.jupiter.api.Test;
import perflab.claims.contract.ClaimsContract;
import perflab.core.traffic.ClientContext;
import perflab.core.traffic.ClientSession;
import perflab.core.traffic.Request;
import perflab.core.workload.TrafficOptions;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ClaimsTrafficTest {
    private static final URI TARGET = URI.create("http://127.0.0.1:8080" + ClaimsContract.GATEWAY_PATH);

    static ClaimsTraffic traffic(String mediation, Map<String, String> extra) {
        return ClaimsTraffic.of(new TrafficOptions(mediation, TARGET, 7L,
                new ClaimsWorkload().resolveSettings(perflab.core.workload.WorkloadSetting.Use.TRAFFIC, extra)));
    }

    @Test
    void sizesComeFromExtraAndTheOperationSelectsTheEndpoint() {
        ClaimsTraffic t = traffic(ClaimsContract.TRANSFORM_SCHEMA, Map.of("request-size", "10k", "response-size", "100k"));
        Request r = t.newSession(new ClientContext(0, 1)).next();
        assertEquals("/esb/transform-schema", r.template().path(r));
        int length = r.template().bodyLength();
        assertTrue(length <= 10 * 1024 && length > 10 * 1024 - 300, "request of " + length + " bytes");
        assertTrue(new String(r.template().body(r), StandardCharsets.UTF_8).contains("<fn:ReplySize>102400</fn:ReplySize>"));
    }

    @Test
    void routingClientsRotateThroughTheRegionsAndTheFieldCanComeLate() {
        ClaimsTraffic t = traffic(ClaimsContract.ROUTE_ON_BODY, Map.of("routing-field-position", "late"));
        ClientSession s = t.newSession(new ClientContext(0, 1));
        Set<String> kinds = new HashSet<>();
        for (int i = 0; i < 3; i++) {
            Request r = s.next();
            kinds.add(r.template().kind());
            String body = new String(r.template().body(r), StandardCharsets.UTF_8);
            assertTrue(body.indexOf("<cs:region>") > body.indexOf("</cs:claim>"), "the region is not after the claim");
        }
        assertEquals(Set.of("route-on-body:north", "route-on-body:south", "route-on-body:west"), kinds);
    }

    @Test
    void badSettingsAreOneLineErrors() {
        assertThrows(IllegalArgumentException.class, () -> traffic("echo", Map.of()));
        assertThrows(IllegalArgumentException.class, () -> traffic(ClaimsContract.PASSTHROUGH, Map.of("request-size", "1k")));
        assertThrows(IllegalArgumentException.class, () -> traffic(ClaimsContract.PASSTHROUGH, Map.of("routing-field-position", "middle")));
    }
}
