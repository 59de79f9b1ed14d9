package perflab.trade.liberty.web;

import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.concurrent.ManagedExecutors;
import jakarta.enterprise.concurrent.ManagedTaskListener;
import perflab.trade.lean.data.AsyncCompletions;

import java.util.concurrent.Executor;
import java.util.concurrent.Future;

/**
 * Order completions on the container's managed executor, each with a listener: a managed executor may drop a task
 * it accepted (cancelled when the application stops, its context unavailable) and tells only the task's listener,
 * which abandons the completion so that the service counts it and waits for nothing.
 */
final class CompletionTasks implements Executor {
    private final ManagedExecutorService executor;

    CompletionTasks(ManagedExecutorService executor) {
        this.executor = executor;
    }

    @Override
    public void execute(Runnable task) {
        executor.execute(ManagedExecutors.managedTask(task, new Abandoning(task)));
    }

    /** Abandons its completion when the executor aborts it; a task that ran or failed by itself is the service's. */
    private record Abandoning(Runnable task) implements ManagedTaskListener {
        @Override
        public void taskAborted(Future<?> future, ManagedExecutorService executor, Object submitted, Throwable why) {
            if (task instanceof AsyncCompletions.Completion completion) {
                completion.abandon(why);
            }
        }

        @Override
        public void taskSubmitted(Future<?> future, ManagedExecutorService executor, Object submitted) {
        }

        @Override
        public void taskDone(Future<?> future, ManagedExecutorService executor, Object submitted, Throwable why) {
        }

        @Override
        public void taskStarting(Future<?> future, ManagedExecutorService executor, Object submitted) {
        }
    }
}
