package perflab.core.server;

import perflab.core.plugin.Plugins;
import perflab.core.workload.StackInfo;

import java.util.List;

/** The kinds of SUT on the classpath, found through ServiceLoader. */
public final class ServerKinds {
    private ServerKinds() {
    }

    public static List<ServerKind> all() {
        return Plugins.all(ServerKind.class, ServerKind::name);
    }

    /** The kind that starts {@code stack}; IllegalArgumentException in one line when no plugin of it is here. */
    public static ServerKind of(StackInfo stack) {
        if (stack.serverFile() != null) {
            return ofServerFiles();
        }
        return Plugins.named(ServerKind.class, ServerKind::name, stack.kind(), (kind, known) ->
                "stack " + stack.name() + " is of kind '" + kind + "', which no plugin here starts"
                        + (known.isEmpty() ? "" : "; the kinds here: " + String.join(", ", known)));
    }

    /** The kind that starts servers from server files; IllegalArgumentException in one line when none is here. */
    public static ServerKind ofServerFiles() {
        return all().stream().filter(ServerKind::startsServerFiles).findFirst().orElseThrow(() ->
                new IllegalArgumentException("no server kind here starts servers from server files"));
    }
}
