package perflab.cli;

import perflab.core.workload.Workload;
import perflab.core.workload.WorkloadSetting;
import perflab.core.workload.Workloads;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The workloads' own settings as command-line flags: each workload declares them
 * ({@link Workload#settings()}), and a command that takes them (one with a WorkloadOptions field) gets one option
 * per setting name, added when the command line is built, so that no workload's flag is written in the CLI. A
 * flag given for another workload than the one run is refused with that workload's list.
 */
final class WorkloadOptions {
    private final Set<WorkloadSetting.Use> uses;
    private final Map<String, String> given = new LinkedHashMap<>();

    /** @param uses which settings the command takes: a run all, serve the server's, drive and request the traffic's */
    WorkloadOptions(Set<WorkloadSetting.Use> uses) {
        this.uses = Set.copyOf(uses);
    }

    /** The command line of {@code command}, with its workload settings' options when it takes them. */
    static CommandLine commandLine(Object command) {
        CommandLine cli = new CommandLine(command);
        declareOn(cli);
        return cli;
    }

    /** Adds the workload options to {@code cli} and to each of its subcommands that takes them. */
    static void declareOn(CommandLine cli) {
        Object command = cli.getCommand();
        for (java.lang.reflect.Field f : command.getClass().getDeclaredFields()) {
            if (f.getType() == WorkloadOptions.class) {
                try {
                    f.setAccessible(true);
                    WorkloadOptions options = (WorkloadOptions) f.get(command);
                    options.declare(cli.getCommandSpec(), options.uses);
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException("cannot read " + f, e);
                }
            }
        }
        cli.getSubcommands().values().forEach(WorkloadOptions::declareOn);
    }

    private void declare(CommandSpec spec, Set<WorkloadSetting.Use> uses) {
        for (Map.Entry<String, List<String>> e : helpByName(uses).entrySet()) {
            String name = e.getKey();
            if (spec.findOption("--" + name) != null) {
                continue;
            }
            spec.addOption(OptionSpec.builder("--" + name).paramLabel(label(name, uses)).type(String.class).arity("1")
                    .description(String.join(" ", e.getValue()))
                    .setter(new CommandLine.Model.ISetter() {
                        @Override
                        public <T> T set(T value) {
                            if (value != null) {
                                given.put(name, (String) value);
                            }
                            return null;
                        }
                    }).build());
        }
    }

    /** Each setting name's help, one entry per workload declaring it ("claims: ..."). */
    private static Map<String, List<String>> helpByName(Set<WorkloadSetting.Use> uses) {
        Map<String, List<String>> help = new TreeMap<>();
        for (Workload w : Workloads.all()) {
            for (WorkloadSetting s : w.settings()) {
                if (uses.contains(s.use())) {
                    help.computeIfAbsent(s.name(), n -> new ArrayList<>()).add(w.name() + ": " + s.help()
                            + (s.defaultValue() == null || s.help().contains("Default") ? "" : " Default: " + s.defaultValue() + "."));
                }
            }
        }
        return help;
    }

    private static String label(String name, Set<WorkloadSetting.Use> uses) {
        for (Workload w : Workloads.all()) {
            for (WorkloadSetting s : w.settings()) {
                if (s.name().equals(name) && uses.contains(s.use())) {
                    return s.valueLabel();
                }
            }
        }
        return "VALUE";
    }

    /** The given settings of one use, checked against the workload (a flag of another workload is refused). */
    Map<String, String> given(Workload workload, WorkloadSetting.Use use) {
        Map<String, String> checked = workload.checkSettings(given);
        Map<String, String> ofUse = new LinkedHashMap<>();
        checked.forEach((name, value) -> {
            if (workload.setting(name).use() == use) {
                ofUse.put(name, value);
            }
        });
        return ofUse;
    }

    static WorkloadOptions all() {
        return new WorkloadOptions(EnumSet.allOf(WorkloadSetting.Use.class));
    }

    static WorkloadOptions of(WorkloadSetting.Use use) {
        return new WorkloadOptions(EnumSet.of(use));
    }
}
