package perflab.agents;

/** The agents could not run the plan, in one line (an agent that cannot start, connect or build its traffic). */
public final class AgentsFailure extends RuntimeException {
    public AgentsFailure(String message) {
        super(message);
    }
}
