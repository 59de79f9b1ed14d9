package perflab.scenario;

import perflab.core.traffic.Traffic;
import perflab.core.workload.OperationInfo;
import perflab.core.workload.StackInfo;
import perflab.core.workload.TrafficOptions;
import perflab.core.workload.Workload;

import java.util.ArrayList;
import java.util.List;

/**
 * A scenario file as a workload: its traffic only. It has no server of its own (no stack): a run gives it one with
 * {@code --target URL} or {@code --server FILE}. Its operations are {@code mix} (the whole scenario) and each
 * transaction's name (that transaction alone).
 */
final class ScenarioWorkload implements Workload {
    static final String MIX = "mix";

    private final Scenario scenario;

    ScenarioWorkload(Scenario scenario) {
        this.scenario = scenario;
    }

    Scenario scenario() {
        return scenario;
    }

    @Override
    public String name() {
        return scenario.file();
    }

    @Override
    public java.util.List<java.nio.file.Path> files() {
        return scenario.files();
    }

    @Override
    public String description() {
        return "scenario " + scenario.name() + (scenario.description().isEmpty() ? "" : ": " + scenario.description());
    }

    @Override
    public List<StackInfo> stacks() {
        return List.of();
    }

    @Override
    public List<OperationInfo> operations() {
        List<OperationInfo> ops = new ArrayList<>();
        ops.add(new OperationInfo(MIX, "the whole scenario: once steps, the mix, end steps"));
        if (scenario.mix().size() > 1) {
            for (Scenario.Transaction t : scenario.mix()) {
                ops.add(new OperationInfo(t.name(), "transaction " + t.name() + " alone, after the once steps"));
            }
        }
        return ops;
    }

    @Override
    public String servicePath() {
        return "";
    }

    @Override
    public Traffic traffic(TrafficOptions options) {
        String path = options.target().getRawPath();
        operation(options.operation());
        return new ScenarioTraffic(scenario, path == null ? "" : path,
                options.operation().equals(MIX) ? null : options.operation());
    }
}
