package perflab.experiment.run;

import perflab.core.result.RunSummary;

import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A run's proxy restart ({@code --restart-proxy-at}): the proxies in front of the SUT's instances (the companions
 * started after them) stopped and started again on their ports a set time into the
 * measured window, as an operator's restart would, while the load goes on. Whatever they held is gone: transactions
 * in flight, the driver's kept-alive connections. Its timer is armed when the window starts; the stop is expected, so
 * it does not end the run as a crashed companion would.
 */
final class ProxyRestart implements AutoCloseable {
    /** Told of each proxy's new process once all are ready (the monitor watches it from then on). */
    interface Watch {
        void started(ManagedProcess p, String proxy);
    }

    private final ServerProcesses server;
    private final Duration at;
    private final Duration readyTimeout;
    private final Watch watch;
    private final PrintStream console;
    private final ScheduledExecutorService timer = FaultTimer.named("perflab-proxy-restart");
    private volatile RunSummary.ProxyRestart restarted;

    ProxyRestart(ServerProcesses server, Duration at, Duration readyTimeout, Watch watch, PrintStream console) {
        this.server = server;
        this.at = at;
        this.readyTimeout = readyTimeout;
        this.watch = watch;
        this.console = console;
    }

    /** The window started at {@code windowStartEpochMs}: the restart is due {@code at} after it. */
    void arm(long windowStartEpochMs) {
        long delay = Math.max(0, windowStartEpochMs + at.toMillis() - System.currentTimeMillis());
        timer.schedule(() -> restart(windowStartEpochMs), delay, TimeUnit.MILLISECONDS);
    }

    private void restart(long windowStartEpochMs) {
        long stopping = System.currentTimeMillis();
        List<String> proxies = server.proxies();
        try {
            List<ManagedProcess> again = server.restartProxies(readyTimeout);
            long ready = System.currentTimeMillis();
            for (int i = 0; i < again.size(); i++) {
                watch.started(again.get(i), proxies.get(i));
            }
            restarted = new RunSummary.ProxyRestart(again.stream().map(ManagedProcess::name).toList(),
                    (stopping - windowStartEpochMs) / 1000.0, stopping, (ready - stopping) / 1000.0, null, null);
            if (console != null) {
                console.printf("perflab: restarted the proxies %s (--restart-proxy-at %s s into the window), ready again "
                        + "in %.1f s%n", proxies, at.toMillis() / 1000.0, (ready - stopping) / 1000.0);
            }
        } catch (RunFailure | RuntimeException e) {
            // the run goes on without its proxies: the driver's errors say what that cost, the console says why
            if (console != null) {
                console.println("perflab: warning: the proxies " + proxies + " could not be started again: "
                        + e.getMessage());
            }
        }
    }

    /** What summary.json says of the restart, or null when it did not happen (the window ended first, or it failed). */
    RunSummary.ProxyRestart restarted() {
        return restarted;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
