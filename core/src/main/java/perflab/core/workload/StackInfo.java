package perflab.core.workload;

/**
 * One server implementation of a workload.
 *
 * @param name        "lean", "cxf", ...
 * @param description one line for `perflab list`
 * @param moduleDir   the stack's Maven module, relative to perflab's home; its runtime classpath is built
 *                    into {@code <moduleDir>/target/stack/}
 * @param mainClass   the SUT's main class; it follows the protocol of {@link perflab.core.sut.SutBootstrap}
 */
public record StackInfo(String name, String description, String moduleDir, String mainClass) {
}
