package perflab.experiment;

import perflab.core.result.RunSummary;

import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A fail-over run's fault ({@code --kill-instance-at}): one SUT instance killed with SIGKILL a set time into the
 * measured window, as a crash would end it, while the load goes on. Its timer is armed when the window starts; the
 * kill is expected, so it does not end the run as a crashed SUT would.
 */
final class InstanceKill implements AutoCloseable {
    private final ServerProcesses server;
    private final String instance;
    private final Duration at;
    private final PrintStream console;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread t = new Thread(task, "perflab-instance-kill");
        t.setDaemon(true);
        return t;
    });
    private volatile long killedEpochMs;

    InstanceKill(ServerProcesses server, String instance, Duration at, PrintStream console) {
        this.server = server;
        this.instance = instance;
        this.at = at;
        this.console = console;
    }

    /** The window started at {@code windowStartEpochMs}: the kill is due {@code at} after it. */
    void arm(long windowStartEpochMs) {
        long delay = Math.max(0, windowStartEpochMs + at.toMillis() - System.currentTimeMillis());
        timer.schedule(this::kill, delay, TimeUnit.MILLISECONDS);
    }

    private void kill() {
        killedEpochMs = System.currentTimeMillis();
        server.kill(instance);
        if (console != null) {
            console.println("perflab: killed " + ManagedProcess.label(instance) + " with SIGKILL (--kill-instance-at "
                    + at.toMillis() / 1000.0 + " s into the window)");
        }
    }

    /** What summary.json says of the kill, or null when it did not happen (the window ended first). */
    RunSummary.Failover failover(long windowStartEpochMs) {
        long killed = killedEpochMs;
        return killed == 0 ? null : new RunSummary.Failover(instance, (killed - windowStartEpochMs) / 1000.0, killed);
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
