package perflab.agents;

import io.grpc.stub.StreamObserver;
import perflab.agents.wire.ToAgent;
import perflab.agents.wire.ToController;
import perflab.driver.DriverResult;

/** The controller's side of one agent's stream, and what it has said so far. Touched by the run thread only. */
final class AgentLink {
    private final StreamObserver<ToAgent> out;
    ToController.Hello hello;
    /** The agent's index in the split, once its hello named an expected agent; -1 before. */
    int index = -1;
    boolean ready;
    DriverResult result;
    /** Why the stream ended before the agent's result, or null. */
    String lost;
    boolean closed;
    long lastHeardNanos = System.nanoTime();
    double cpuSeconds;
    /** The agent's CPU in its latest measured second, as a share of one core. */
    double lastCpuShare;
    double gcPauseMs;
    long lastMeasuredRequests;
    double lastMeasuredSeconds;
    /**
     * Why its latest measured second was the driver's limit rather than the SUT's
     * ({@link perflab.driver.LoadDriver#saturation}); null if it was not.
     */
    String lastSaturation;

    AgentLink(StreamObserver<ToAgent> out) {
        this.out = out;
    }

    String name() {
        return hello == null ? "an agent" : hello.name();
    }

    /** Sends, unless the stream is closed; a failed send is the stream's end, which its observer reports. */
    synchronized void send(ToAgent message) {
        if (!closed) {
            try {
                out.onNext(message);
            } catch (RuntimeException e) {
                closed = true;
            }
        }
    }

    synchronized void close() {
        if (!closed) {
            closed = true;
            try {
                out.onCompleted();
            } catch (RuntimeException e) {
                // already gone
            }
        }
    }

    synchronized void refuse(io.grpc.Status status) {
        if (!closed) {
            closed = true;
            try {
                out.onError(status.asRuntimeException());
            } catch (RuntimeException e) {
                // already gone
            }
        }
    }
}
