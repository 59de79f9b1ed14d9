package perflab.driver;

import perflab.core.workload.TrafficPart;

/**
 * This driver's place when a run's load is split over several driver processes (agents).
 *
 * @param agent       0-based index of this agent
 * @param agents      how many agents share the run
 * @param clientCount the run's clients over all agents: sessions deal shared data (trade's users) by it
 * @param stagger     a constant schedule's offset, as a fraction of one of this agent's loops' gaps (0..1): agents
 *                    with equal shares at offsets i/N fire in the slots one machine's schedule would have used; it is
 *                    also the weights before this agent's over all weights, where its part of a population starts
 * @param upTo        the weights up to and with this agent's over all weights: where its part of a population ends
 */
public record AgentShare(int agent, int agents, int clientCount, double stagger, double upTo) {
    public AgentShare {
        if (agents < 1 || agent < 0 || agent >= agents) {
            throw new IllegalArgumentException("agent " + agent + " of " + agents + " is not a place in the split");
        }
        if (clientCount < 1 || stagger < 0 || stagger >= 1 || !(upTo > stagger && upTo <= 1)) {
            throw new IllegalArgumentException("a share needs a client count and 0 <= stagger < upTo <= 1");
        }
    }

    /** The traffic's part: the population (voicemail's users) is dealt by the same weights as the load. */
    public TrafficPart trafficPart() {
        return new TrafficPart(agent, stagger, upTo);
    }
}
