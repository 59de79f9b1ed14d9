package perflab.core.server;

import perflab.core.config.RunConfig;
import perflab.core.workload.StackInfo;

import java.nio.file.Path;
import java.util.List;

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
 */
public record ServerRequest(StackInfo stack, RunConfig.Sut sut, String process, Path perflabHome, Path runDir,
                            boolean jfr, List<String> listens) {
    public ServerRequest {
        listens = List.copyOf(listens);
    }
}
