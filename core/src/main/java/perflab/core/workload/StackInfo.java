package perflab.core.workload;

/**
 * One server implementation of a workload.
 *
 * @param name        "lean", "cxf", ...
 * @param description one line for `perflab list`
 * @param moduleDir   the stack's Maven module, relative to perflab's home; its runtime classpath is built
 *                    into {@code <moduleDir>/target/stack/}
 * @param mainClass   the SUT's main class; it follows the protocol of {@link perflab.core.sut.SutBootstrap}
 * @param kind        the {@link perflab.core.server.ServerKind} that starts it: {@link #PERFLAB_STACK} for a stack
 *                    of perflab's own; null for a stack a server file declares (the kind that starts server files)
 * @param serverFile  for a stack that is a product started from a server file (docs/servers.md): that file, relative
 *                    to perflab's home; null for a stack of a main class
 */
public record StackInfo(String name, String description, String moduleDir, String mainClass, String kind,
                        String serverFile) {
    /** perflab's own kind: the stack's main class in a JVM of its own, its classpath only, through SutBootstrap. */
    public static final String PERFLAB_STACK = "stack";

    public StackInfo {
        if (serverFile == null && (kind == null || kind.isBlank())) {
            throw new IllegalArgumentException("stack " + name + " names no kind of server to start it");
        }
        if (serverFile != null && (kind != null || mainClass != null)) {
            throw new IllegalArgumentException("stack " + name + " is declared by " + serverFile + ": it has no main "
                    + "class and no kind of its own");
        }
    }

    /** A stack of a main class started by a kind of server. */
    public StackInfo(String name, String description, String moduleDir, String mainClass, String kind) {
        this(name, description, moduleDir, mainClass, kind, null);
    }

    /** A stack of perflab's own ({@link #PERFLAB_STACK}). */
    public StackInfo(String name, String description, String moduleDir, String mainClass) {
        this(name, description, moduleDir, mainClass, PERFLAB_STACK);
    }

    /**
     * A stack that is a server file's server (a product such as Tomcat or Liberty with perflab's application): the
     * file says how it starts, where JVM flags go, and which settings it takes; the workload's server settings reach
     * it as the file's settings of the same names.
     *
     * @param moduleDir the Maven module the file's server needs built (its application), relative to perflab's home
     */
    public static StackInfo ofServerFile(String name, String description, String moduleDir, String serverFile) {
        return new StackInfo(name, description, moduleDir, null, null, java.util.Objects.requireNonNull(serverFile));
    }
}
