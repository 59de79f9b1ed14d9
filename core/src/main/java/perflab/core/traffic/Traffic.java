package perflab.core.traffic;

import java.util.List;

/**
 * A workload's traffic model for one run: creates a session per client. Implementations are immutable and
 * thread-safe; sessions are not shared between threads.
 */
public interface Traffic {
    ClientSession newSession(ClientContext context);

    /** Names of the request kinds this traffic sends (per-kind statistics, error messages). */
    List<String> requestKinds();

    /**
     * The open model's send times when this traffic paces itself ({@link Agenda}); null (the default) when requests
     * go out at the run's rate. Called once per drive, before any session is made, in an open-model run only.
     *
     * @param arrivalsPerSecond the run's {@code --rate}: what arrives per second is the traffic's to say (users)
     * @param poisson           arrivals at exponential gaps rather than evenly spaced
     */
    default Agenda agenda(double arrivalsPerSecond, boolean poisson) {
        return null;
    }
}
