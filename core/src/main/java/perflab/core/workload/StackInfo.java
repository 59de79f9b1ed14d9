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
 *                    of perflab's own
 */
public record StackInfo(String name, String description, String moduleDir, String mainClass, String kind) {
    /** perflab's own kind: the stack's main class in a JVM of its own, its classpath only, through SutBootstrap. */
    public static final String PERFLAB_STACK = "stack";

    public StackInfo {
        if (kind == null || kind.isBlank()) {
            throw new IllegalArgumentException("stack " + name + " names no kind of server to start it");
        }
    }

    /** A stack of perflab's own ({@link #PERFLAB_STACK}). */
    public StackInfo(String name, String description, String moduleDir, String mainClass) {
        this(name, description, moduleDir, mainClass, PERFLAB_STACK);
    }
}
