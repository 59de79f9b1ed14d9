package perflab.soapecho;

import perflab.core.traffic.Traffic;
import perflab.core.workload.OperationInfo;
import perflab.core.workload.StackInfo;
import perflab.core.workload.TrafficOptions;
import perflab.core.workload.Workload;
import perflab.core.workload.WorkloadSetting;
import perflab.soapecho.contract.PerfContract;

import java.util.List;

/** The Apache CXF performance harness (seed 001): document/literal SOAP echo of strings, bytes and structs. */
public final class SoapEchoWorkload implements Workload {
    private static final List<StackInfo> STACKS = List.of(
            new StackInfo("lean", "Jetty 12 core + Woodstox StAX binding, no servlet layer",
                    "workloads/soap-echo/stack-lean", "perflab.soapecho.lean.LeanSoapEchoServer"),
            new StackInfo("cxf", "Apache CXF 4.2.3 JAX-WS (JAXB) on CXF's Jetty 12.1 transport",
                    "workloads/soap-echo/stack-cxf", "perflab.soapecho.cxf.CxfSoapEchoServer"));
    private static final List<OperationInfo> OPERATIONS = List.of(
            new OperationInfo(PerfContract.ECHO_COMPLEX_TYPE, "echo P NestedComplexType items and the request id"),
            new OperationInfo(PerfContract.ECHO_STRING, "echo a string of 1024 x P characters"),
            new OperationInfo(PerfContract.ECHO_BASE64, "echo 1024 bytes as xs:base64Binary"));

    /** The harness's packet size P: P items of the complex type, or a string of 1024 x P characters. */
    static final String PAYLOAD = "payload";
    private static final List<WorkloadSetting> SETTINGS = List.of(
            WorkloadSetting.integer(PAYLOAD, 1, 1, 100_000,
                    "Packet size P: P NestedComplexType items (echoComplexTypeDoc) or 1024 x P characters (echoStringDoc).")
                    .asDimension());

    @Override
    public List<WorkloadSetting> settings() {
        return SETTINGS;
    }

    @Override
    public String name() {
        return "soap-echo";
    }

    /** The CXF harness ends each run with its per-client "Overall Test Result" block; so does this workload. */
    @Override
    public boolean reportsPerClient() {
        return true;
    }

    @Override
    public String description() {
        return "Apache CXF performance harness: SOAP 1.1 doc/literal echo (PerfService, SoapHttpDocLitPort)";
    }

    @Override
    public List<StackInfo> stacks() {
        return STACKS;
    }

    @Override
    public List<OperationInfo> operations() {
        return OPERATIONS;
    }

    @Override
    public String servicePath() {
        return PerfContract.SERVICE_PATH;
    }

    @Override
    public Traffic traffic(TrafficOptions options) {
        return SoapEchoTraffic.of(options);
    }
}
