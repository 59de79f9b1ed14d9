package perflab.cli;

import perflab.experiment.run.RunFailure;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.nio.file.Path;

/** perflab's command line. Every user error is one line on stderr and a non-zero exit, never a stack trace. */
@Command(name = "perflab", mixinStandardHelpOptions = true, version = "perflab 0.1.0",
        description = "A performance lab for server middleware: reference workloads, a load driver you can trust, monitors and reports.",
        subcommands = {RunCommand.class, TuneCommand.class, DriveCommand.class, AgentCommand.class, ServeCommand.class, ListCommand.class, RequestCommand.class, GcCommand.class, ReportCommand.class, CompareCommand.class, HistoryCommand.class, CommandLine.HelpCommand.class})
public final class Perflab {
    /** Exit status for bad input (flags, files). */
    static final int BAD_INPUT = 2;

    public static void main(String[] args) {
        int status = execute(args);
        if (!Shutdown.inProgress()) {
            System.exit(status);
        }
    }

    static int execute(String... args) {
        CommandLine cli = WorkloadOptions.commandLine(new Perflab());
        ConversionCommands.addTo(cli); // perflab scenario from-har ..., from the workload file kinds registered
        // `perflab tune WORKLOAD --heap 256m,1g ...`: tune reads `perflab run`'s flags itself (comma lists make the matrix)
        cli.getSubcommands().get("tune").setUnmatchedOptionsArePositionalParams(true);
        cli.setParameterExceptionHandler((e, a) -> {
            PrintWriter err = e.getCommandLine().getErr();
            err.println("perflab: " + e.getMessage().replace('\n', ' ') + " (see: "
                    + e.getCommandLine().getCommandSpec().qualifiedName() + " --help)");
            return BAD_INPUT;
        });
        cli.setExecutionExceptionHandler((e, c, parsed) -> {
            PrintWriter err = c.getErr();
            if (e instanceof IllegalArgumentException) {
                err.println("perflab: " + e.getMessage());
                return BAD_INPUT;
            }
            if (e instanceof RunFailure failure) {
                err.println("perflab: " + failure.getMessage());
                if (failure.detail() != null && !failure.detail().isBlank()) {
                    err.print(failure.detail());
                    err.flush(); // print does not flush as println does: the last lines were lost at exit
                }
                return 1;
            }
            if (e instanceof java.io.IOException) {
                err.println("perflab: " + e.getMessage());
                return 1;
            }
            throw e; // a bug: let picocli show the stack trace so that it gets reported
        });
        return cli.execute(PresetFlags.expand(args, WorkloadOptions.commandLine(new Perflab())));
    }

    /** perflab's install directory (stacks are found under it), set by the launcher. */
    static Path home() {
        return Path.of(System.getProperty("perflab.home", ".")).toAbsolutePath().normalize();
    }

    static Path resultsRoot() {
        return Path.of(System.getProperty("perflab.results", "results"));
    }
}
