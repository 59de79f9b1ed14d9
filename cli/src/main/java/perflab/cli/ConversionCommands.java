package perflab.cli;

import perflab.core.result.AtomicFiles;
import perflab.core.workload.FileConversion;
import perflab.core.workload.WorkloadFileKind;
import perflab.core.workload.Workloads;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * The commands of the workload file kinds' conversions ({@code perflab scenario from-har FILE.har -o FILE.yaml}),
 * made from what each registered kind declares: the CLI names no kind and no conversion.
 */
final class ConversionCommands {
    private static final String NAME_PATTERN = "[A-Za-z0-9][A-Za-z0-9_.-]*";

    private ConversionCommands() {
    }

    /** Adds a command per kind that converts, with a subcommand per conversion. */
    static void addTo(CommandLine cli) {
        for (WorkloadFileKind kind : Workloads.fileKinds()) {
            if (kind.conversions().isEmpty()) {
                continue;
            }
            String usage = kind.conversions().stream().map(c -> "perflab " + kind.name() + " " + c.name() + " "
                    + c.inputLabel()).reduce((a, b) -> a + " or " + b).orElseThrow();
            CommandSpec spec = CommandSpec.wrapWithoutInspection((Callable<Integer>) () -> {
                throw new IllegalArgumentException("give what to do: " + usage);
            });
            spec.mixinStandardHelpOptions(true);
            spec.usageMessage().description(kind.name() + " files made from other files: " + usage + ".");
            CommandLine kindCommand = new CommandLine(spec);
            for (FileConversion c : kind.conversions()) {
                kindCommand.addSubcommand(c.name(), new CommandLine(conversion(kind, c)));
            }
            cli.addSubcommand(kind.name(), kindCommand);
        }
    }

    private static CommandSpec conversion(WorkloadFileKind kind, FileConversion c) {
        Object[] holder = new Object[1];
        CommandSpec spec = CommandSpec.wrapWithoutInspection((Callable<Integer>) () -> run(kind, c, (CommandSpec) holder[0]));
        holder[0] = spec;
        spec.mixinStandardHelpOptions(true);
        spec.usageMessage().description(c.description());
        spec.addPositional(PositionalParamSpec.builder().index("0").paramLabel(c.inputLabel()).type(Path.class)
                .required(true).description("The input.").build());
        spec.addOption(OptionSpec.builder("-o", "--out").paramLabel("FILE").type(Path.class)
                .description("Where to write the " + kind.name() + " file (default: printed); an existing file is refused.")
                .build());
        spec.addOption(OptionSpec.builder("--name").paramLabel("NAME").type(String.class)
                .description("The " + kind.name() + "'s name (default: the input's file name).").build());
        for (Map.Entry<String, String> s : c.switches().entrySet()) {
            spec.addOption(OptionSpec.builder("--" + s.getKey()).type(boolean.class).arity("0")
                    .description(s.getValue()).build());
        }
        return spec;
    }

    private static int run(WorkloadFileKind kind, FileConversion c, CommandSpec spec) throws Exception {
        Path input = spec.positionalParameters().get(0).getValue();
        Path out = spec.findOption("--out").getValue();
        String given = spec.findOption("--name").getValue();
        String name = given != null ? given : input.getFileName().toString().replaceFirst("\\.[A-Za-z0-9]+$", "");
        if (!name.matches(NAME_PATTERN)) {
            throw new IllegalArgumentException("--name: '" + name + "' is not a name of letters, digits, ., - and _; "
                    + "give one with --name");
        }
        if (out != null && Files.exists(out)) {
            throw new IllegalArgumentException("-o " + out + ": the file is there already; give a new file");
        }
        Set<String> switches = new LinkedHashSet<>();
        for (String s : c.switches().keySet()) {
            if (Boolean.TRUE.equals(spec.findOption("--" + s).getValue())) {
                switches.add(s);
            }
        }
        String text = c.convert(input, name, switches);
        if (out == null) {
            System.out.print(text);
        } else {
            AtomicFiles.write(out, text.getBytes(StandardCharsets.UTF_8));
            System.err.println("perflab: " + kind.name() + " file written to " + out + "; run it with perflab run " + out
                    + " --target URL");
        }
        return 0;
    }
}
