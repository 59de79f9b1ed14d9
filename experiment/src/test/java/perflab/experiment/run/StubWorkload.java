package perflab.experiment.run;

import perflab.core.traffic.ClientContext;
import perflab.core.traffic.ClientSession;
import perflab.core.traffic.Traffic;
import perflab.core.workload.OperationInfo;
import perflab.core.workload.StackInfo;
import perflab.core.workload.TrafficOptions;
import perflab.core.workload.Workload;

import java.util.List;

/**
 * A workload for this module's tests of how a run is laid out: one stack {@code a} (workloads/x/stack-a, main
 * {@code x.Main}, which a test puts under its perflab home), one operation {@code op}, service path {@code /}, and
 * no traffic. A test overrides what it is about (the server side, load sources, run files).
 */
abstract class StubWorkload implements Workload {
    private final String name;
    private final String description;

    StubWorkload(String name, String description) {
        this.name = name;
        this.description = description;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public List<StackInfo> stacks() {
        return List.of(new StackInfo("a", "test", "workloads/x/stack-a", "x.Main"));
    }

    @Override
    public List<OperationInfo> operations() {
        return List.of(new OperationInfo("op", "test"));
    }

    @Override
    public String servicePath() {
        return "/";
    }

    /** A run checks that its traffic can be built; these tests never drive, so a session is never made. */
    @Override
    public Traffic traffic(TrafficOptions options) {
        return new Traffic() {
            @Override
            public ClientSession newSession(ClientContext context) {
                throw new UnsupportedOperationException("a stub workload's run never gets as far as driving");
            }

            @Override
            public List<String> requestKinds() {
                return List.of("op");
            }
        };
    }
}
