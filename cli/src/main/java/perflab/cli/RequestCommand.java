package perflab.cli;

import perflab.core.traffic.ClientContext;
import perflab.core.traffic.Request;
import perflab.core.workload.TrafficOptions;
import perflab.core.workload.Workload;
import perflab.core.workload.WorkloadSetting;
import perflab.core.workload.Workloads;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.Callable;

@Command(name = "request", mixinStandardHelpOptions = true,
        description = {"Print the body of one request of a workload's traffic (to try a server by hand, or to feed another tool).",
                "Example: perflab request WORKLOAD > body; curl --data-binary @body http://127.0.0.1:8080/..."})
final class RequestCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "WORKLOAD")
    String workload;

    @Option(names = "--operation", paramLabel = "NAME", description = "Operation (default: the workload's first).")
    String operation;

    /** The workload's own flags, added to this command from the workloads' declarations. */
    private final WorkloadOptions workloadOptions = WorkloadOptions.of(WorkloadSetting.Use.TRAFFIC);

    @Option(names = "--seed", paramLabel = "N", defaultValue = "1", description = "Random seed. Default: ${DEFAULT-VALUE}.")
    long seed;

    @Override
    public Integer call() {
        Workload w = Workloads.named(workload);
        String op = RunCommand.operation(w, operation);
        URI target = URI.create("http://127.0.0.1:8080" + w.servicePath());
        Request request = w.traffic(new TrafficOptions(op, target, seed,
                w.resolveSettings(WorkloadSetting.Use.TRAFFIC, workloadOptions.given(w, WorkloadSetting.Use.TRAFFIC))))
                .newSession(new ClientContext(0, seed)).next();
        System.out.print(new String(request.template().body(request), StandardCharsets.UTF_8));
        System.out.flush();
        return 0;
    }
}
