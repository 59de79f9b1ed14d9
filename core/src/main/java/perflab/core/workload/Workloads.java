package perflab.core.workload;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;

/** The workloads on the classpath, found through ServiceLoader. */
public final class Workloads {
    private Workloads() {
    }

    public static List<Workload> all() {
        List<Workload> found = new ArrayList<>();
        ServiceLoader.load(Workload.class).forEach(found::add);
        found.sort(Comparator.comparing(Workload::name));
        return found;
    }

    public static Workload named(String name) {
        List<Workload> all = all();
        return all.stream().filter(w -> w.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown workload '" + name + "'; known workloads: "
                        + String.join(", ", all.stream().map(Workload::name).toList())));
    }
}
