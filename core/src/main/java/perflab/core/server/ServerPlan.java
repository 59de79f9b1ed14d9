package perflab.core.server;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * One SUT process as its {@link ServerKind} laid it out. Words that name ports ({@code {sut.port}}) are left for
 * perflab to fill in once it has chosen them: in the command, the environment, the files and the URL.
 *
 * @param command   the command line, its port references ({@code {backend.port}}) left for perflab to fill in
 * @param readyLine the start of the line on its output that says it serves, its words after it announcing its
 *                  ports ({@code port=41234 sip=39011}); null: ready once started, or as {@code program} says
 * @param jvm       whether it is a JVM perflab may attach a profiler to (or, for a program, has one in its tree)
 * @param gcLog     its GC log in the run directory, which the run's GC figures read; null: none
 * @param jvmReport the file in the run directory where its JVM says what it runs with (run.json's
 *                  {@code effectiveJvm}); null: none
 * @param jfr       its flight recording in the run directory; null: none
 * @param program   for a program that does not speak perflab's process protocol (a server file's): how it is
 *                  started, known ready and stopped; null for perflab's own stacks
 */
public record ServerPlan(List<String> command, String readyLine, boolean jvm, String gcLog, String jvmReport,
                         String jfr, Program program) {
    public ServerPlan {
        command = List.copyOf(command);
    }

    /** A process that speaks perflab's process protocol. */
    public ServerPlan(List<String> command, String readyLine, boolean jvm, String gcLog, String jvmReport, String jfr) {
        this(command, readyLine, jvm, gcLog, jvmReport, jfr, null);
    }

    /**
     * How a program that knows nothing of perflab runs as the SUT.
     *
     * @param env     environment variables besides perflab's own, port references left in
     * @param workDir where it runs
     * @param files   files to write before it starts (the run's copy of its home), by path, port references left in
     * @param ports   the names of the loopback ports perflab chooses for it before it starts; the first is "port"
     * @param url     the URL the traffic targets, port references left in; null: its port and the workload's path
     * @param ready   how perflab knows it serves (an HTTP URL's port references left in; a TCP port by name)
     * @param stop    how it is asked to stop, before its whole process group is killed
     * @param source  the server file it was laid out from, for run.json
     * @param home    the home its run copy was made from (a distribution unpacked in perflab's cache), for run.json;
     *                null: none
     */
    public record Program(Map<String, String> env, Path workDir, Map<Path, String> files, List<String> ports, String url,
                          ServerFile.Ready ready, ServerFile.Stop stop, ServerFile source, Path home) {
        public Program {
            env = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(env));
            files = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(files));
            ports = List.copyOf(ports);
        }
    }
}
