package perflab.experiment.run;

import perflab.core.config.RunConfig;
import perflab.core.workload.Companion;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line that starts a companion process: in its own session and on the SUT's CPUs, like the SUT
 * (a companion shares the server's machine share, as the claims back end did when the gateway started it); a
 * JVM companion on the SUT's JDK with its own stack classpath and GC log, and its JVM flags only (the run's
 * --heap and --gc are the SUT's).
 */
final class CompanionCommand {
    private CompanionCommand() {
    }

    static List<String> build(Companion companion, RunConfig.Sut sut, Path perflabHome, Path runDir) {
        List<String> command = new ArrayList<>();
        command.addAll(perflab.core.process.ProcessReaper.inOwnGroup(List.of())); // its own session: see ManagedProcess
        if (sut.cpus() != null) {
            command.addAll(List.of("taskset", "-c", sut.cpus()));
        }
        if (!companion.isJvm()) {
            // a program of the workload's own folder (workloads/voicemail/proxy/haproxy.sh) is named from perflab's
            // home; one on the PATH (haproxy) or absolute is left as it is
            String program = companion.command().get(0);
            boolean ownScript = program.contains("/") && !Path.of(program).isAbsolute();
            command.add(ownScript ? perflabHome.resolve(program).toAbsolutePath().toString() : program);
            command.addAll(companion.command().subList(1, companion.command().size()));
            command.addAll(companion.args());
            return command;
        }
        command.add(SutCommand.javaExecutable(sut.javaHome()).toString());
        command.addAll(companion.jvmFlags());
        command.add(GcFlags.gcLogFlag(runDir.resolve(companion.name() + "-gc.log")));
        command.add("-cp");
        command.add(SutCommand.moduleClasspath(companion.moduleDir(), "companion " + companion.name(), perflabHome)
                .toAbsolutePath() + "/*");
        command.add(companion.mainClass());
        command.addAll(List.of("--host", "127.0.0.1", "--port", "0",
                "--jvm-report", runDir.resolve(companion.name() + "-jvm.json").toAbsolutePath().toString()));
        command.addAll(companion.args());
        return command;
    }
}
