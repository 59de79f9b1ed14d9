package perflab.cli;

import perflab.core.workload.OperationInfo;
import perflab.core.workload.StackInfo;
import perflab.core.workload.Workload;
import perflab.core.workload.WorkloadSetting;
import perflab.core.workload.Workloads;
import picocli.CommandLine.Command;

import java.util.concurrent.Callable;

@Command(name = "list", mixinStandardHelpOptions = true, description = "List the workloads, their stacks, operations (first = default) and own settings.")
final class ListCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        for (Workload w : Workloads.all()) {
            System.out.printf("%s — %s%n  service path: %s%n  stacks:%n", w.name(), w.description(), w.servicePath());
            for (StackInfo s : w.stacks()) {
                System.out.printf("    %-12s %s%n", s.name(), s.description());
            }
            System.out.println("  operations:");
            for (OperationInfo o : w.operations()) {
                System.out.printf("    %-20s %s%n", o.name(), o.description());
            }
            if (!w.settings().isEmpty()) {
                System.out.println("  settings (flags of run, serve, drive and tune; * = a tune dimension):");
                for (WorkloadSetting s : w.settings()) {
                    System.out.printf("    --%-36s %s%s%n", s.name() + " " + s.valueLabel(), s.dimension() ? "* " : "",
                            s.helpWithDefault());
                }
            }
            if (!w.presets().isEmpty()) {
                System.out.println("  presets (--preset NAME; a flag given beside it wins):");
                for (var p : w.presets()) {
                    StringBuilder flags = new StringBuilder();
                    p.flags().forEach((flag, value) -> flags.append(" --").append(flag).append(' ').append(value));
                    System.out.printf("    %-20s %s:%s%n", p.name(), p.description(), flags);
                }
            }
        }
        return 0;
    }
}
