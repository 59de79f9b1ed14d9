package perflab.driver;

public enum Phase {
    WARMUP("warmup"), MEASURE("measure");

    private final String label;

    Phase(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
