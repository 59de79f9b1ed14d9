package perflab.agents.wire;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import perflab.driver.LoadSpec;

import java.net.URI;
import java.util.Map;

/** What the controller tells an agent, in the order it says it: a plan, then start, then maybe stop. */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
        @JsonSubTypes.Type(value = ToAgent.Plan.class, name = "plan"),
        @JsonSubTypes.Type(value = ToAgent.Start.class, name = "start"),
        @JsonSubTypes.Type(value = ToAgent.EndWarmup.class, name = "end-warmup"),
        @JsonSubTypes.Type(value = ToAgent.Stop.class, name = "stop")})
public sealed interface ToAgent {
    /**
     * The agent's part of the run: the workload's traffic to build (with the settings the controller resolved) and
     * the load spec of its share (its clients, rate and counts, its first client's index, its place in the split).
     */
    record Plan(String workload, String operation, URI target, Map<String, String> settings, LoadSpec load)
            implements ToAgent {
    }

    /** Every agent is ready: start the warm-up now. */
    record Start() implements ToAgent {
    }

    /** The automatic warm-up found the system warm: the window starts at the next interval cut. */
    record EndWarmup() implements ToAgent {
    }

    /** End the run now with this reason, and report what was measured. */
    record Stop(String reason) implements ToAgent {
    }
}
