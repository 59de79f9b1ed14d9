package perflab.core.workload;

import java.net.URI;
import java.util.Map;

/**
 * What a workload needs to build its traffic.
 *
 * @param operation the operation to drive
 * @param payload   the workload's payload setting (soap-echo: packet size P)
 * @param target    the service URI the requests go to (its path is used as the request path)
 * @param seed      the run's random seed
 * @param extra     workload-specific settings by name (kept for workloads to come)
 */
public record TrafficOptions(String operation, int payload, URI target, long seed, Map<String, String> extra) {
    public TrafficOptions {
        extra = Map.copyOf(extra);
    }
}
