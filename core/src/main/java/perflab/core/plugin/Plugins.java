package perflab.core.plugin;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The plugins of one kind on the classpath (workloads, load sources, server kinds), each found through
 * {@link ServiceLoader} from the one line its module registers, and known by its name.
 */
public final class Plugins {
    private Plugins() {
    }

    /** Every plugin of {@code type}, sorted by name. */
    public static <T> List<T> all(Class<T> type, Function<T, String> nameOf) {
        List<T> found = new ArrayList<>();
        ServiceLoader.load(type).forEach(found::add);
        found.sort(Comparator.comparing(nameOf));
        return found;
    }

    /**
     * The plugin of {@code type} named {@code name}; otherwise IllegalArgumentException with the line
     * {@code unknown} makes of the names there are.
     */
    public static <T> T named(Class<T> type, Function<T, String> nameOf, String name,
                              BiFunction<String, List<String>, String> unknown) {
        List<T> all = all(type, nameOf);
        return all.stream().filter(p -> nameOf.apply(p).equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException(unknown.apply(name, all.stream().map(nameOf).toList())));
    }
}
