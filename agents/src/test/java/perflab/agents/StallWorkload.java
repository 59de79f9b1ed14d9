package perflab.agents;

import perflab.core.traffic.ClientContext;
import perflab.core.traffic.ClientSession;
import perflab.core.traffic.ErrorKind;
import perflab.core.traffic.Request;
import perflab.core.traffic.RequestTemplate;
import perflab.core.traffic.ResponseView;
import perflab.core.traffic.Traffic;
import perflab.core.traffic.Verdict;
import perflab.core.workload.OperationInfo;
import perflab.core.workload.StackInfo;
import perflab.core.workload.TrafficOptions;
import perflab.core.workload.Workload;

import java.util.List;

/** The agents' test workload (found by ServiceLoader, as a real one): GET the target, expect 200. */
public final class StallWorkload implements Workload {
    static final String NAME = "agents-test";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "agents' tests: GET, expect 200";
    }

    @Override
    public List<StackInfo> stacks() {
        return List.of();
    }

    @Override
    public List<OperationInfo> operations() {
        return List.of(new OperationInfo("get", "GET the target"));
    }

    @Override
    public String servicePath() {
        return "/stall";
    }

    @Override
    public Traffic traffic(TrafficOptions options) {
        RequestTemplate get = RequestTemplate.builder("get", "GET").path(options.target().getRawPath()).build();
        return new Traffic() {
            @Override
            public ClientSession newSession(ClientContext context) {
                Request request = new Request(get);
                return new ClientSession() {
                    @Override
                    public Request next() {
                        return request;
                    }

                    @Override
                    public Verdict check(Request sent, ResponseView response, boolean deep) {
                        return response.status() == 200 ? Verdict.OK : Verdict.fail(ErrorKind.HTTP_STATUS, "HTTP " + response.status());
                    }
                };
            }

            @Override
            public List<String> requestKinds() {
                return List.of("get");
            }
        };
    }
}
