package perflab.experiment.run;

import perflab.core.result.RunSummary;

import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A fail-over run's fault ({@code --kill-instance-at}): one SUT instance killed with SIGKILL a set time into the
 * measured window, as a crash would end it, while the load goes on; with {@code --restart-instance-at}, started again
 * later on the same ports ({@link ServerProcesses#restart}). Its timer is armed when the window starts; the kill is
 * expected, so it does not end the run as a crashed SUT would.
 */
final class InstanceKill implements AutoCloseable {
    /** Who follows the instance's return: told before it starts again and once it is ready. */
    interface Return {
        /** The killed instance is about to be started again on its ports. */
        void starting(String instance);

        /** It is ready again as process {@code p}, started at {@code startedEpochMs}. */
        void ready(ManagedProcess p, long startedEpochMs);
    }

    private final ServerProcesses server;
    private final String instance;
    private final Duration at;
    private final Duration restartAt;
    private final Duration readyTimeout;
    private final Return onReturn;
    private final PrintStream console;
    private final ScheduledExecutorService timer = FaultTimer.named("perflab-instance-kill");
    private volatile long killedEpochMs;
    private volatile RunSummary.Restart restarted;

    /**
     * @param restartAt when to start the instance again, into the window; null: never
     * @param onReturn  told of the restart (the monitor and the counter sampler follow the new process)
     */
    InstanceKill(ServerProcesses server, String instance, Duration at, Duration restartAt, Duration readyTimeout,
                 Return onReturn, PrintStream console) {
        this.server = server;
        this.instance = instance;
        this.at = at;
        this.restartAt = restartAt;
        this.readyTimeout = readyTimeout;
        this.onReturn = onReturn;
        this.console = console;
    }

    /** The window started at {@code windowStartEpochMs}: the kill is due {@code at} after it, the restart later. */
    void arm(long windowStartEpochMs) {
        long delay = Math.max(0, windowStartEpochMs + at.toMillis() - System.currentTimeMillis());
        timer.schedule(this::kill, delay, TimeUnit.MILLISECONDS);
        if (restartAt != null) {
            // the same single thread: never before the kill
            long again = Math.max(0, windowStartEpochMs + restartAt.toMillis() - System.currentTimeMillis());
            timer.schedule(() -> restart(windowStartEpochMs), again, TimeUnit.MILLISECONDS);
        }
    }

    private void restart(long windowStartEpochMs) {
        long started = System.currentTimeMillis();
        try {
            onReturn.starting(instance);
            ManagedProcess p = server.restart(instance, readyTimeout);
            long ready = System.currentTimeMillis();
            onReturn.ready(p, started);
            restarted = new RunSummary.Restart(p.name(), (started - windowStartEpochMs) / 1000.0, started,
                    (ready - started) / 1000.0, null);
            if (console != null) {
                console.printf("perflab: started %s again as %s, pid %d, ready in %.1f s (--restart-instance-at %s s "
                        + "into the window)%n", ManagedProcess.label(instance), p.name(), p.pid(), (ready - started) / 1000.0,
                        restartAt.toMillis() / 1000.0);
            }
        } catch (RunFailure | RuntimeException e) {
            // the run goes on with the instance down: the summary has no restart, the console says why
            if (console != null) {
                console.println("perflab: warning: " + ManagedProcess.label(instance) + " could not be started again: "
                        + e.getMessage());
            }
        }
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
        if (killed == 0) {
            return null;
        }
        RunSummary.Failover failover = new RunSummary.Failover(instance, (killed - windowStartEpochMs) / 1000.0, killed);
        return restarted == null ? failover : failover.withRestart(restarted);
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
