package perflab.experiment.run;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The clock of a fault injected into a run's measured window ({@link InstanceKill}, {@link ProxyRestart}): one daemon
 * thread, so that a fault still due when the run ends never holds perflab's JVM up.
 */
final class FaultTimer {
    private FaultTimer() {
    }

    static ScheduledExecutorService named(String name) {
        return Executors.newSingleThreadScheduledExecutor(task -> {
            Thread t = new Thread(task, name);
            t.setDaemon(true);
            return t;
        });
    }
}
