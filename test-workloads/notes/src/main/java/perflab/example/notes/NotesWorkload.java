package perflab.example.notes;

import perflab.core.traffic.Traffic;
import perflab.core.workload.Companion;
import perflab.core.workload.OperationInfo;
import perflab.core.workload.ServerSide;
import perflab.core.workload.StackInfo;
import perflab.core.workload.SutInstances;
import perflab.core.workload.TrafficOptions;
import perflab.core.workload.Workload;
import perflab.core.workload.WorkloadSetting;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The example of docs/adding-a-workload.md: a stateful web scenario (log in, then a weighted mix of listing,
 * reading and adding notes, with a session cookie and a CSRF token carried from page to page) against a small
 * web app whose storage service is a companion process. Registered in META-INF/services; kept for the tests.
 */
public final class NotesWorkload implements Workload {
    static final String MODULE = "test-workloads/notes";
    static final String ADD_SHARE = "add-share";
    static final String READING_TIME = "reading-time";
    static final String STORE_LATENCY = "store-latency";
    static final String STORE = "store";
    static final String PROXY = "proxy";

    private static final List<WorkloadSetting> SETTINGS = List.of(
            WorkloadSetting.integer(ADD_SHARE, 15, 0, 90, "Share of requests that add a note, % (the rest list and "
                    + "read notes, two reads to a list).").asDimension(),
            WorkloadSetting.duration(READING_TIME, "0ms", Duration.ZERO, Duration.ofSeconds(60),
                    "How long a user reads a note before the next request (a per-request think time)."),
            WorkloadSetting.duration(STORE_LATENCY, "0ms", Duration.ZERO, Duration.ofSeconds(10),
                    "Delay of every call to the storage service (a slower back end).").forServer().asDimension());

    @Override
    public String name() {
        return "notes";
    }

    @Override
    public String description() {
        return "example: a notes web app with a login, a session cookie and a CSRF token, its store a companion process";
    }

    @Override
    public List<StackInfo> stacks() {
        return List.of(new StackInfo("jdk", "the JDK's HttpServer, no framework", MODULE, NotesApp.class.getName()));
    }

    @Override
    public List<OperationInfo> operations() {
        return List.of(new OperationInfo("browse", "log in, then list, read and add notes in a weighted mix"));
    }

    @Override
    public String servicePath() {
        return "/notes";
    }

    @Override
    public List<WorkloadSetting> settings() {
        return SETTINGS;
    }

    @Override
    public Traffic traffic(TrafficOptions options) {
        return new NotesTraffic(Integer.parseInt(options.setting(ADD_SHARE)),
                Duration.ofMillis(Long.parseLong(options.setting(READING_TIME).replace("ms", ""))));
    }

    /** The store starts first, and the app is told where it listens. */
    @Override
    public ServerSide serverSide(Map<String, String> settings) {
        return new ServerSide(List.of(store(settings)), Map.of("store-url", "http://127.0.0.1:{store.port}"));
    }

    /**
     * Several instances share the one store (a cluster in front of one database) behind haproxy, which keeps each
     * user on the instance that holds its session.
     */
    @Override
    public ServerSide serverSide(Map<String, String> settings, int instances) {
        if (instances == 1) {
            return serverSide(settings);
        }
        List<String> proxy = new java.util.ArrayList<>(List.of(MODULE + "/proxy/haproxy.sh", "{" + PROXY + ".port}"));
        SutInstances.names(instances).forEach(name -> proxy.add("{" + name + ".port}"));
        Companion haproxy = Companion.program(PROXY, proxy, Companion.Start.AFTER_SUT, null).listening("port");
        return new ServerSide(List.of(store(settings), haproxy), Map.of("store-url", "http://127.0.0.1:{store.port}"),
                List.of(), PROXY);
    }

    private static Companion store(Map<String, String> settings) {
        return Companion.jvm(STORE, MODULE, NotesStore.class.getName(), List.of("-Xmx64m"),
                List.of("--latency", settings.get(STORE_LATENCY)), Companion.Start.BEFORE_SUT);
    }
}
