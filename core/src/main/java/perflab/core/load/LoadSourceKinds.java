package perflab.core.load;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;

/** The kinds of load source on the classpath, found through ServiceLoader. */
public final class LoadSourceKinds {
    private LoadSourceKinds() {
    }

    public static List<LoadSourceKind> all() {
        List<LoadSourceKind> found = new ArrayList<>();
        ServiceLoader.load(LoadSourceKind.class).forEach(found::add);
        found.sort(Comparator.comparing(LoadSourceKind::name));
        return found;
    }

    /** The kind that runs {@code source}; IllegalArgumentException in one line when no plugin of that kind is here. */
    public static LoadSourceKind of(LoadSource source) {
        List<LoadSourceKind> all = all();
        return all.stream().filter(k -> k.name().equals(source.kind())).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("load source " + source.name() + " is of kind '"
                        + source.kind() + "', which no plugin here runs" + (all.isEmpty() ? ""
                        : "; the kinds here: " + String.join(", ", all.stream().map(LoadSourceKind::name).toList()))));
    }
}
