package perflab.core.server;

import perflab.core.config.RunConfig;
import perflab.core.workload.StackInfo;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What a {@link ServerKind} lays one SUT process out from.
 *
 * @param stack       the workload's stack the run starts
 * @param sut         the SUT settings under test: JVM flags, heap, collector, JDK, CPUs, port, the stack's settings
 *                    (the workload's and perflab's own, for this process)
 * @param process     the process's name: {@code sut}, an instance's {@code sut-1}, or a restarted one's
 * @param perflabHome perflab's home, what a stack's files are relative to
 * @param runDir      the run's directory: where the process's own files go, named after it
 * @param jfr         whether to record a flight recording of the SUT (a JVM kind's; others refuse it or ignore it)
 * @param listens     the names of the loopback ports perflab chooses for it before it starts
 * @param jvmFlags    the JVM flags of the settings under test, as perflab would give them to a JVM of its own:
 *                    {@code --heap}, {@code --gc}, {@code --jvm}, the GC log in the run directory and, with
 *                    {@code jfr}, the flight recording; for a kind whose server is a JVM perflab does not start itself
 * @param gcLog       the GC log those flags write, in the run directory
 * @param companions  for a server file's server, how it reaches each companion its file asks for, by name: the
 *                    companion's URL template ({@code {NAME.url}}), which may name the companion's ports
 */
public record ServerRequest(StackInfo stack, RunConfig.Sut sut, String process, Path perflabHome, Path runDir,
                            boolean jfr, List<String> listens, List<String> jvmFlags, String gcLog,
                            Map<String, String> companions) {
    public ServerRequest {
        listens = List.copyOf(listens);
        jvmFlags = List.copyOf(jvmFlags);
        companions = Map.copyOf(companions);
    }

    /** A process that reaches no companion by a URL perflab gives it. */
    public ServerRequest(StackInfo stack, RunConfig.Sut sut, String process, Path perflabHome, Path runDir,
                         boolean jfr, List<String> listens, List<String> jvmFlags, String gcLog) {
        this(stack, sut, process, perflabHome, runDir, jfr, listens, jvmFlags, gcLog, Map.of());
    }

    /** The server file the SUT is declared by ({@link RunConfig.Sut#server}); null: the workload's stack. */
    public ServerFile server() {
        return sut.server();
    }
}
