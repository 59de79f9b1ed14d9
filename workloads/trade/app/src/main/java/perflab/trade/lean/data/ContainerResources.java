package perflab.trade.lean.data;

import java.util.Map;
import java.util.concurrent.Executor;

/**
 * What an application server lends the brokerage's service instead of the service's own: where async orders
 * complete ({@link AsyncCompletions}) and where quotes are cached ({@link QuoteCache}). The lean stack lends nothing
 * ({@link #NONE}); Liberty lends a managed executor and a DistributedMap.
 *
 * @param completionExecutor runs a task in its caller when its queue is full, as the service's own pool does; null:
 *                           the service's own threads
 * @param quoteMap           a map the container bounds (its size is the container's configuration); null: the
 *                           application's own cache
 */
public record ContainerResources(Executor completionExecutor, Map<Object, Object> quoteMap) {
    /** The service's own threads and cache. */
    public static final ContainerResources NONE = new ContainerResources(null, null);
}
