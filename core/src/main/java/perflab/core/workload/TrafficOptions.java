package perflab.core.workload;

import java.net.URI;
import java.util.Map;

/**
 * What a workload needs to build its traffic.
 *
 * @param operation the operation to drive
 * @param target    the service URI the requests go to (its path is used as the request path)
 * @param seed      the run's random seed
 * @param settings  the workload's traffic settings ({@link WorkloadSetting.Use#TRAFFIC}) by name, checked and
 *                  with every default filled in
 * @param part      the part of the run this process drives ({@link TrafficPart#WHOLE} but when agents share it)
 */
public record TrafficOptions(String operation, URI target, long seed, Map<String, String> settings, TrafficPart part) {
    public TrafficOptions {
        settings = Map.copyOf(settings);
        java.util.Objects.requireNonNull(part, "part");
    }

    /** The options of a run driven from one process. */
    public TrafficOptions(String operation, URI target, long seed, Map<String, String> settings) {
        this(operation, target, seed, settings, TrafficPart.WHOLE);
    }

    /** A setting's value; an undeclared name is a bug in the workload. */
    public String setting(String name) {
        String value = settings.get(name);
        if (value == null) {
            throw new IllegalStateException("traffic setting '" + name + "' is not declared or has no default");
        }
        return value;
    }
}
