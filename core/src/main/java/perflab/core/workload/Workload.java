package perflab.core.workload;

import perflab.core.traffic.Traffic;

import java.util.List;

/**
 * A reference workload: its server stacks (each started in its own JVM) and its traffic model. Registered
 * through {@link java.util.ServiceLoader} by the workload's traffic module (one line in
 * META-INF/services/perflab.core.workload.Workload).
 */
public interface Workload {
    String name();

    String description();

    /** The stacks that implement the server; the first is the default. */
    List<StackInfo> stacks();

    /** The operations the traffic can drive; the first is the default. */
    List<OperationInfo> operations();

    /** The request path of the service, appended to a bare http://host:port target. */
    String servicePath();

    /** Builds the traffic for one run; throws {@link IllegalArgumentException} with a one-line reason. */
    Traffic traffic(TrafficOptions options);

    default StackInfo stack(String name) {
        return stacks().stream().filter(s -> s.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown stack '" + name + "' for workload "
                        + name() + "; known stacks: " + String.join(", ", stacks().stream().map(StackInfo::name).toList())));
    }

    default OperationInfo operation(String name) {
        return operations().stream().filter(o -> o.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown operation '" + name + "' for workload "
                        + name() + "; known operations: " + String.join(", ", operations().stream().map(OperationInfo::name).toList())));
    }
}
