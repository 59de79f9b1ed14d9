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
}
