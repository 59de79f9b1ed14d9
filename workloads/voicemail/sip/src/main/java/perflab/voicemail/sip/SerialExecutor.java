package perflab.voicemail.sip;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs its tasks one at a time, in order, on a shared pool: one per user (or Call-ID) serialises that user's work
 * while users run in parallel, with no thread per user and no lock held while a task runs. A task that throws is
 * reported to the pool thread's handler and does not stop the ones after it.
 */
public final class SerialExecutor implements Executor {
    private final Executor pool;
    private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean scheduled = new AtomicBoolean();

    public SerialExecutor(Executor pool) {
        this.pool = pool;
    }

    @Override
    public void execute(Runnable task) {
        tasks.add(task);
        schedule();
    }

    private void schedule() {
        if (!tasks.isEmpty() && scheduled.compareAndSet(false, true)) {
            pool.execute(this::drain);
        }
    }

    private void drain() {
        try {
            // a bounded batch, so that one busy user cannot hold a pool thread from the others
            for (int i = 0; i < 64; i++) {
                Runnable task = tasks.poll();
                if (task == null) {
                    break;
                }
                try {
                    task.run();
                } catch (RuntimeException | Error e) {
                    Thread.UncaughtExceptionHandler handler = Thread.currentThread().getUncaughtExceptionHandler();
                    handler.uncaughtException(Thread.currentThread(), e);
                }
            }
        } finally {
            scheduled.set(false);
            schedule();
        }
    }
}
