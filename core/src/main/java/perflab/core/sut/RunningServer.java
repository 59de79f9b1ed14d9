package perflab.core.sut;

/** A started SUT server. */
public interface RunningServer {
    /** The port actually bound (the SUT may be asked for port 0). */
    int port();

    /**
     * Further ports it serves, by name ("sip" for a converged server's SIP listener), announced in the READY
     * line after {@code port=} so that perflab and companions can reach them.
     */
    default java.util.Map<String, Integer> otherPorts() {
        return java.util.Map.of();
    }

    /**
     * What the server did to start that a reader of the run wants to know (trade: how its database was populated
     * and restored, and how long that took), by name; values are numbers or one-line text. Announced before the
     * READY line ({@link SutBootstrap#FACT}) and kept in run.json ({@code processes.<name>.startup}).
     */
    default java.util.Map<String, Object> startupFacts() {
        return java.util.Map.of();
    }

    /** Graceful stop: finish in-flight requests, close connectors. */
    void stop() throws Exception;
}
