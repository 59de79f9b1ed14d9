package perflab.core.sut;

/** A started SUT server. */
public interface RunningServer {
    /** The port actually bound (the SUT may be asked for port 0). */
    int port();

    /** Graceful stop: finish in-flight requests, close connectors. */
    void stop() throws Exception;
}
