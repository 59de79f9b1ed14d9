package perflab.example.hello;

import perflab.core.traffic.Traffic;
import perflab.core.workload.OperationInfo;
import perflab.core.workload.Preset;
import perflab.core.workload.StackInfo;
import perflab.core.workload.TrafficOptions;
import perflab.core.workload.Workload;
import perflab.core.workload.WorkloadSetting;

import java.util.List;
import java.util.Map;

/**
 * The workload the platform's own tests run: the CLI's lifecycle, agents, tune, reports and bad-input tests need
 * a real server that is fast to start and cheap per request, with what every workload may declare (two operations,
 * a setting, presets, per-client figures, h2c), and nothing of a production workload's study they would have to
 * know. Registered in META-INF/services; kept for the tests, not shipped in the CLI.
 */
public final class HelloWorkload implements Workload {
    static final String MODULE = "test-workloads/hello";
    static final String SERVICE_PATH = "/hello";
    static final String ECHO = "echo";
    static final String GREET = "greet";
    static final String SIZE = "size";

    private static final List<WorkloadSetting> SETTINGS = List.of(
            WorkloadSetting.integer(SIZE, 1024, 16, 1_000_000, "Bytes of each echo request's body, which comes back whole.")
                    .asDimension());
    private static final List<Preset> PRESETS = List.of(
            new Preset("smoke", "a quick look: 2 clients, 1 s of warm-up, 2 s measured",
                    Map.of("clients", "2", "warmup", "1s", "duration", "2s")),
            new Preset("bulk", "64 KB echoes from 4 clients, 2,000 requests measured",
                    Map.of("clients", "4", "requests", "2000", SIZE, "65536")));

    @Override
    public String name() {
        return "hello";
    }

    @Override
    public String description() {
        return "test: an HTTP echo and greeting on Jetty 12 (HTTP/1.1, h2c), each answer carrying its request's id";
    }

    @Override
    public List<StackInfo> stacks() {
        return List.of(new StackInfo("jetty", "Jetty 12 core, no servlet layer", MODULE, HelloServer.class.getName()),
                StackInfo.ofServerFile("jetty-file", "the same server started from a server file (hello-jetty.yaml)",
                        MODULE, MODULE + "/hello-jetty.yaml"));
    }

    @Override
    public List<OperationInfo> operations() {
        return List.of(new OperationInfo(ECHO, "POST a body of --size bytes, get it back"),
                new OperationInfo(GREET, "GET ?id=N, get 'hello N' back"));
    }

    @Override
    public String servicePath() {
        return SERVICE_PATH;
    }

    @Override
    public List<WorkloadSetting> settings() {
        return SETTINGS;
    }

    @Override
    public List<Preset> presets() {
        return PRESETS;
    }

    /** The per-client block the CXF harness prints at the end of a run, which the platform offers every workload. */
    @Override
    public boolean reportsPerClient() {
        return true;
    }

    @Override
    public Traffic traffic(TrafficOptions options) {
        return HelloTraffic.of(options);
    }
}
