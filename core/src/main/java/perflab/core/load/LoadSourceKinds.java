package perflab.core.load;

import perflab.core.plugin.Plugins;

import java.util.List;

/** The kinds of load source on the classpath, found through ServiceLoader. */
public final class LoadSourceKinds {
    private LoadSourceKinds() {
    }

    public static List<LoadSourceKind> all() {
        return Plugins.all(LoadSourceKind.class, LoadSourceKind::name);
    }

    /** The kind that runs {@code source}; IllegalArgumentException in one line when no plugin of that kind is here. */
    public static LoadSourceKind of(LoadSource source) {
        return Plugins.named(LoadSourceKind.class, LoadSourceKind::name, source.kind(), (kind, known) ->
                "load source " + source.name() + " is of kind '" + kind + "', which no plugin here runs"
                        + (known.isEmpty() ? "" : "; the kinds here: " + String.join(", ", known)));
    }
}
