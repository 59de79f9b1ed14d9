package perflab.example.ring;

import perflab.core.traffic.ClientSession;
import perflab.core.traffic.ErrorKind;
import perflab.core.traffic.Request;
import perflab.core.traffic.RequestTemplate;
import perflab.core.traffic.Traffic;
import perflab.core.traffic.Verdict;
import perflab.core.workload.OperationInfo;
import perflab.core.workload.ServerSide;
import perflab.loadsource.sipp.SippLoad;
import perflab.core.workload.StackInfo;
import perflab.core.workload.TrafficOptions;
import perflab.core.workload.Workload;
import perflab.core.workload.WorkloadSetting;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * The example of a second load source (docs/adding-a-workload.md): SIPp places calls to the SUT's SIP port at
 * {@code --call-rate} while perflab's HTTP driver reads the SUT's call counters; and a SIPp that only answers, the
 * phone, started before the SUT, which is told its port and calls it once as it starts. Registered in
 * META-INF/services; kept for the tests.
 */
public final class RingWorkload implements Workload {
    static final String CALL_RATE = "call-rate";
    /** The SUT's setting: where the phone answers. */
    static final String PHONE = "phone";
    private static final byte[] INVITES = "\"invites\":".getBytes(StandardCharsets.US_ASCII);

    @Override
    public String name() {
        return "ring";
    }

    @Override
    public String description() {
        return "example: SIPp calls to a SIP responder beside HTTP reads of its counters";
    }

    @Override
    public List<StackInfo> stacks() {
        return List.of(new StackInfo("jdk", "the JDK's HttpServer and a UDP socket, no framework",
                "test-workloads/ring", RingServer.class.getName()));
    }

    @Override
    public List<OperationInfo> operations() {
        return List.of(new OperationInfo("counters", "GET the SIP responder's call counters"));
    }

    @Override
    public String servicePath() {
        return "/calls";
    }

    @Override
    public List<WorkloadSetting> settings() {
        return List.of(WorkloadSetting.integer(CALL_RATE, 20, 1, 2000, "New SIP calls per second SIPp places.")
                .asDimension());
    }

    @Override
    public Traffic traffic(TrafficOptions options) {
        RequestTemplate counters = RequestTemplate.builder("counters", "GET").path("/calls").build();
        return new Traffic() {
            @Override
            public ClientSession newSession(perflab.core.traffic.ClientContext context) {
                Request request = new Request(counters);
                return new ClientSession() {
                    @Override
                    public Request next() {
                        return request;
                    }

                    @Override
                    public Verdict check(Request r, perflab.core.traffic.ResponseView response, boolean deep) {
                        return response.status() == 200 && response.indexOf(INVITES, 0) >= 0 ? Verdict.OK
                                : Verdict.fail(ErrorKind.HTTP_STATUS, "counters: status " + response.status());
                    }
                };
            }

            @Override
            public List<String> requestKinds() {
                return List.of("counters");
            }
        };
    }

    /** The SUT is told where the phone answers: the port perflab chose for that SIPp, which starts first. */
    @Override
    public ServerSide serverSide(Map<String, String> settings) {
        return ServerSide.sutOnly(Map.of(PHONE, "127.0.0.1:{phone.port}"));
    }

    /**
     * The phone, SIPp's built-in uas, answers the SUT's call; SIPp's built-in uac calls the SUT's SIP port, which the
     * SUT announced on its READY line.
     */
    @Override
    public List<perflab.core.load.LoadSource> loadSources(Map<String, String> settings) {
        return List.of(SippLoad.answers(PHONE, "uas", List.of()),
                SippLoad.calls("calls", "uac", "127.0.0.1:{sut.sip}", Integer.parseInt(settings.get(CALL_RATE)), 0, List.of()));
    }
}
