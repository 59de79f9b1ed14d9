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
                    options.declare(cli.getCommandSpec());
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException("cannot read " + f, e);
                }
            }
        }
        cli.getSubcommands().values().forEach(WorkloadOptions::declareOn);
    }

    private void declare(CommandSpec spec) {
        // one option per name: workloads that declare the same name share it, and its help lists each one's
        Map<String, List<WorkloadSetting>> byName = new TreeMap<>();
        Map<String, List<String>> help = new TreeMap<>();
        for (Workload w : Workloads.all()) {
            for (WorkloadSetting s : w.settings()) {
                if (uses.stream().anyMatch(s.use()::readBy)) {
                    byName.computeIfAbsent(s.name(), n -> new ArrayList<>()).add(s);
                    help.computeIfAbsent(s.name(), n -> new ArrayList<>()).add(w.name() + ": " + s.helpWithDefault());
                }
            }
        }
        byName.forEach((name, settings) -> {
            if (spec.findOption("--" + name) != null) {
                return;
            }
            spec.addOption(OptionSpec.builder("--" + name).paramLabel(settings.get(0).valueLabel()).type(String.class)
                    .arity("1").description(String.join(" ", help.get(name)).replace("%", "%%")) // picocli formats it
                    .setter(new CommandLine.Model.ISetter() {
                        @Override
                        public <T> T set(T value) {
                            if (value != null) {
                                given.put(name, (String) value);
                            }
                            return null;
                        }
                    }).build());
        });
    }

    /**
     * A workload's settings that only its own stacks read (trade's --db) would not reach a server file's server:
     * refused in one line rather than silently dropped. Those the traffic reads too stay, and so do those of a
     * companion the file asks for (trade's --db-outage with {@code companions: [postgres]}).
     */
    void refuseServerSettings(Workload w, perflab.core.server.ServerFile server) {
        for (String name : given(w, WorkloadSetting.Use.SERVER).keySet()) {
            boolean companions = server.companions().stream().anyMatch(c -> w.companionSettings(c).contains(name));
            if (w.setting(name).use() == WorkloadSetting.Use.SERVER && !companions) {
                throw new IllegalArgumentException("--" + name + " is a setting of " + w.name() + "'s own stacks, which "
                        + server.name() + " is not; give the server's own settings with --set"
                        + (server.settings().isEmpty() ? "" : " (" + String.join(", ", server.settingNames()) + ")"));
            }
        }
    }

    /**
     * The given settings {@code use} (TRAFFIC or SERVER) reads, BOTH included, checked against the workload (a
     * flag of another workload is refused).
     */
    Map<String, String> given(Workload workload, WorkloadSetting.Use use) {
        Map<String, String> checked = workload.checkSettings(given);
        Map<String, String> ofUse = new LinkedHashMap<>();
        checked.forEach((name, value) -> {
            if (workload.setting(name).use().readBy(use)) {
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
