package perflab.core.server;

import perflab.core.workload.StackInfo;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;

/** The kinds of SUT on the classpath, found through ServiceLoader. */
public final class ServerKinds {
    private ServerKinds() {
    }

    public static List<ServerKind> all() {
        List<ServerKind> found = new ArrayList<>();
        ServiceLoader.load(ServerKind.class).forEach(found::add);
        found.sort(Comparator.comparing(ServerKind::name));
        return found;
    }

    /** The kind that starts {@code stack}; IllegalArgumentException in one line when no plugin of it is here. */
    public static ServerKind of(StackInfo stack) {
        List<ServerKind> all = all();
        return all.stream().filter(k -> k.name().equals(stack.kind())).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("stack " + stack.name() + " is of kind '" + stack.kind()
                        + "', which no plugin here starts" + (all.isEmpty() ? ""
                        : "; the kinds here: " + String.join(", ", all.stream().map(ServerKind::name).toList()))));
    }
}
