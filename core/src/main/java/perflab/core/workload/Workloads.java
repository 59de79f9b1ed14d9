package perflab.core.workload;

import perflab.core.plugin.Plugins;

import java.util.List;

/** The workloads on the classpath, found through ServiceLoader. */
public final class Workloads {
    private Workloads() {
    }

    public static List<Workload> all() {
        return Plugins.all(Workload.class, Workload::name);
    }

    public static Workload named(String name) {
        return Plugins.named(Workload.class, Workload::name, name, (unknown, known) -> "unknown workload '" + unknown
                + "'; known workloads: " + String.join(", ", known));
    }
}
