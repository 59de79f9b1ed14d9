package perflab.core.server;

import java.util.List;

/**
 * One SUT process as its {@link ServerKind} laid it out.
 *
 * @param command   the command line, its port references ({@code {backend.port}}) left for perflab to fill in
 * @param readyLine the start of the line on its output that says it serves, its words after it announcing its
 *                  ports ({@code port=41234 sip=39011}); null: ready once started
 * @param jvm       whether it is a JVM perflab may attach a profiler to
 * @param gcLog     its GC log in the run directory, which the run's GC figures read; null: none
 * @param jvmReport the file in the run directory where its JVM says what it runs with (run.json's
 *                  {@code effectiveJvm}); null: none
 * @param jfr       its flight recording in the run directory; null: none
 */
public record ServerPlan(List<String> command, String readyLine, boolean jvm, String gcLog, String jvmReport,
                         String jfr) {
    public ServerPlan {
        command = List.copyOf(command);
    }
}
