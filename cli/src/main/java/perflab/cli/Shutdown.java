package perflab.cli;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Tracks whether the JVM is shutting down (Ctrl-C): then the main thread must not call System.exit, which
 * would block forever behind the shutdown hook that is waiting for the results to be written.
 */
final class Shutdown {
    private static final AtomicBoolean IN_PROGRESS = new AtomicBoolean();

    private Shutdown() {
    }

    static void onSignal(Runnable action) {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            IN_PROGRESS.set(true);
            action.run();
        }, "perflab-shutdown"));
    }

    static boolean inProgress() {
        return IN_PROGRESS.get();
    }
}
