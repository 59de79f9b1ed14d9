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
     * A workload declared in a file comes with its files (the file and what it reads, by their paths relative to
     * its folder, as text); empty for a workload written in Java.
     */
    record Plan(String workload, String operation, URI target, Map<String, String> settings, LoadSpec load,
                Map<String, String> files) implements ToAgent {
        public Plan {
            files = files == null ? Map.of() : Map.copyOf(files);
        }

        public Plan(String workload, String operation, URI target, Map<String, String> settings, LoadSpec load) {
            this(workload, operation, target, settings, load, Map.of());
        }
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
