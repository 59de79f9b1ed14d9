package perflab.core.workload;

public record OperationInfo(String name, String description) {
}
