package perflab.cli;

import perflab.core.config.RunConfig;
import perflab.core.workload.Workload;
import perflab.core.workload.WorkloadSetting;
import perflab.core.workload.Workloads;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

@Command(name = "drive", mixinStandardHelpOptions = true,
        description = {"Only the driver: load a server that is already running (perflab's `serve`, or another product's, e.g. CXF's own).",
                "Example: perflab drive WORKLOAD --target http://127.0.0.1:8080 --clients 100 --duration 60s"})
final class DriveCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "WORKLOAD", description = "Workload whose traffic to send (see `perflab list`).")
    String workload;

    @Option(names = "--target", required = true, paramLabel = "URL",
            description = "The service: http://host:port (the workload's service path is added) or a full URL.")
    String target;

    @Mixin
    LoadOptions load;

    /** The workload's own flags, added to this command from the workloads' declarations. */
    private final WorkloadOptions workloadOptions = WorkloadOptions.of(WorkloadSetting.Use.TRAFFIC);

    @Override
    public Integer call() throws Exception {
        return drive(workload, target, load, workloadOptions);
    }

    /** Drives {@code target} with the workload's traffic: perflab drive, and perflab run --target. */
    static Integer drive(String workload, String target, LoadOptions load, WorkloadOptions workloadOptions) throws Exception {
        Workload w = Workloads.named(workload);
        load.checkPreset(w);
        RunConfig config = new RunConfig(w.name(), null, RunCommand.operation(w, load.operation),
                load.toLoad(workloadOptions.given(w, WorkloadSetting.Use.TRAFFIC)),
                new RunConfig.Sut(List.of(), null, null, null, null, 0, Map.of()), target,
                RunCommand.driverCpus(null, load.driverCpus, RunCommand.spec(RunCommand.agents(load))), load.out, load.quiet,
                null, RunCommand.agents(load), load.recording());
        return RunCommand.execute(config, w, false, load.clientCounts(), load.gate(config.recording()));
    }
}
