package perflab.agents.wire;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import perflab.driver.DriverResult;
import perflab.driver.Interval;

/** What an agent tells the controller: hello, ready, one report a second, then its result (or why it failed). */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
        @JsonSubTypes.Type(value = ToController.Hello.class, name = "hello"),
        @JsonSubTypes.Type(value = ToController.Ready.class, name = "ready"),
        @JsonSubTypes.Type(value = ToController.Report.class, name = "report"),
        @JsonSubTypes.Type(value = ToController.Finished.class, name = "finished"),
        @JsonSubTypes.Type(value = ToController.Failed.class, name = "failed")})
public sealed interface ToController {
    /**
     * The agent's first message: the run's token proves it was started for this run.
     *
     * @param cpus    the CPUs this agent may use (its affinity), its weight in the split
     * @param epochMs the agent's clock when it said hello: the controller puts the agent's times on its own clock
     */
    record Hello(String token, String name, String host, long pid, int cpus, String java, long epochMs)
            implements ToController {
    }

    /** The plan was taken: traffic built, driver made. The controller starts no agent before all are ready. */
    record Ready() implements ToController {
    }

    /**
     * One interval cut by the agent's driver and the agent's health at the cut.
     *
     * @param index      the interval's number in its phase, from 0 at the phase's start: the key intervals of the
     *                   agents are added by (their wall clocks may disagree)
     * @param cpuSeconds the agent process's CPU time since its driver started
     * @param gcPauseMs  the agent JVM's GC pauses since it started
     */
    record Report(int index, Interval interval, double cpuSeconds, double gcPauseMs) implements ToController {
    }

    /** The agent's driver ended; its result, which its reports of the measured phase add up to. */
    record Finished(DriverResult result) implements ToController {
    }

    /** The agent cannot go on, in one line. */
    record Failed(String reason) implements ToController {
    }
}
