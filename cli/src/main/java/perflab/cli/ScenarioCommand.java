package perflab.cli;

import perflab.core.result.AtomicFiles;
import perflab.scenario.HarImport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** Scenario files (docs/scenarios.md): made from what a browser recorded. */
@Command(name = "scenario", mixinStandardHelpOptions = true,
        description = "Scenario files: the user's own traffic (docs/scenarios.md).",
        subcommands = {ScenarioCommand.FromHar.class})
final class ScenarioCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        throw new IllegalArgumentException("give what to do: perflab scenario from-har FILE.har [-o FILE.yaml]");
    }

    @Command(name = "from-har", mixinStandardHelpOptions = true,
            description = {"Make a scenario file from a browser's recording (HAR 1.2: developer tools, Network, "
                    + "Save all as HAR): one step per request of the application, static assets and other hosts left "
                    + "out, values the server gave and the browser sent back extracted, pauses kept as think times.",
                    "Example: perflab scenario from-har visit.har -o visit.yaml; perflab run visit.yaml --target URL"})
    static final class FromHar implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "FILE.har", description = "The recording.")
        Path har;

        @Option(names = {"-o", "--out"}, paramLabel = "FILE.yaml", description = "Where to write the scenario "
                + "(default: printed); an existing file is refused.")
        Path out;

        @Option(names = "--name", paramLabel = "NAME", description = "The scenario's name (default: the recording's "
                + "file name).")
        String name;

        @Option(names = "--no-think", description = "Leave the recording's pauses out: each session goes as fast as the "
                + "server answers (default: each pause of 100 ms or more is the step's think time).")
        boolean noThink;

        @Override
        public Integer call() throws Exception {
            String n = name != null ? name : har.getFileName().toString().replaceFirst("\\.har$", "");
            if (!n.matches("[A-Za-z0-9][A-Za-z0-9_.-]*")) {
                throw new IllegalArgumentException("--name: '" + n + "' is not a name of letters, digits, ., - and _; "
                        + "give one with --name");
            }
            if (out != null && Files.exists(out)) {
                throw new IllegalArgumentException("-o " + out + ": the file is there already; give a new file");
            }
            String yaml = HarImport.toScenario(har, n, !noThink);
            if (out == null) {
                System.out.print(yaml);
            } else {
                AtomicFiles.write(out, yaml.getBytes(StandardCharsets.UTF_8));
                System.err.println("perflab: scenario written to " + out + "; run it with perflab run " + out
                        + " --target URL");
            }
            return 0;
        }
    }
}
