package perflab.cli;

import perflab.core.workload.Preset;
import perflab.core.workload.Workload;
import perflab.core.workload.Workloads;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code --preset NAME}: the preset's flags are added to the command line before it is parsed for real, each
 * only when the user did not give that flag, so a given flag always wins and the run records the flags it ran
 * with (run.json's command line shows them). The command line is first parsed once on its own to learn the
 * workload and which flags were given; when that parse fails, nothing is added and the real parse reports why.
 */
final class PresetFlags {
    static final String OPTION = "--preset";

    private PresetFlags() {
    }

    static String[] expand(String[] args, CommandLine probe) {
        ParseResult command;
        try {
            command = probe.parseArgs(args).subcommand();
        } catch (CommandLine.ParameterException e) {
            return args;
        }
        if (command == null || !command.hasMatchedOption(OPTION) || command.matchedPositionals().isEmpty()) {
            return args;
        }
        Workload workload;
        Preset preset;
        try {
            Object name = command.matchedPositionals().get(0).getValue();
            String presetName = command.matchedOptionValue(OPTION, "");
            workload = Workloads.named(String.valueOf(name));
            preset = workload.preset(presetName);
        } catch (IllegalArgumentException e) {
            return args; // the command reports the unknown workload or preset in its one line
        }
        List<String> expanded = new ArrayList<>(List.of(args));
        preset.flags().forEach((flag, value) -> {
            if (!command.hasMatchedOption("--" + flag)) {
                expanded.add("--" + flag);
                expanded.add(value);
            }
        });
        return expanded.toArray(String[]::new);
    }
}
