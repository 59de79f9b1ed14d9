package perflab.core.load;

import java.nio.file.Path;

/**
 * A kind of load source perflab can run (SIPp, say): a plugin, found through {@link java.util.ServiceLoader} (one
 * line in META-INF/services/perflab.core.load.LoadSourceKind of the plugin's module). It checks the declarations of
 * its kind before anything starts and starts them; what it starts tells the run its process, ports, figures and
 * periods through {@link LoadSourceProcess}.
 */
public interface LoadSourceKind {
    /** The name declarations give as their {@link LoadSource#kind}; lower-case. */
    String name();

    /**
     * Checks one declaration of this kind before anything starts (its tool installed, its files there, its options
     * right); throws IllegalArgumentException with a one-line reason naming the source.
     *
     * @param perflabHome what a declaration's relative file names are relative to
     */
    LoadSourcePlan plan(LoadSource source, Path perflabHome);
}
