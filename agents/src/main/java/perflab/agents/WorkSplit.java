package perflab.agents;

import perflab.driver.AgentShare;
import perflab.driver.LoadSpec;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits one run's load over agents by weight (their CPUs). Every quantity is cut at cumulative floors: agent i gets
 * floor(total x W(i+1) / W) - floor(total x W(i) / W), W(i) being the weights before it, so that the parts always
 * sum to the total exactly (rounding each part on its own loses or invents requests). Clients keep their indexes of
 * a one-machine run (agent i's first client follows agent i-1's last), so sessions, their seeds and the data they
 * use are the same as on one machine and no two agents drive the same one. The rate is cut in mreq/s.
 */
public final class WorkSplit {
    private WorkSplit() {
    }

    /** The parts of {@code total} by {@code weights}, summing to it exactly. */
    static long[] cumulativeFloors(long total, int[] weights) {
        long sum = 0;
        for (int w : weights) {
            if (w < 1) {
                throw new IllegalArgumentException("an agent's weight must be at least 1, got " + w);
            }
            sum += w;
        }
        long[] parts = new long[weights.length];
        long before = 0;
        long cut = 0;
        for (int i = 0; i < weights.length; i++) {
            before += weights[i];
            long next = Math.floorDiv(Math.multiplyExact(total, before), sum);
            parts[i] = next - cut;
            cut = next;
        }
        return parts;
    }

    /**
     * Each agent's load spec. A constant schedule is striped: with equal weights, agent i's loops fire at offsets
     * i/N of their gaps, in the slots one machine's loops would have used; the Poisson schedules get independent
     * seeds per agent (see {@code LoadDriver}), and a sum of independent Poisson processes is Poisson at the sum.
     */
    public static List<LoadSpec> split(LoadSpec run, int[] weights) {
        int agents = weights.length;
        if (run.share() != null) {
            throw new IllegalArgumentException("a run already split cannot be split again");
        }
        if (run.clients() < agents) {
            throw new IllegalArgumentException("--clients " + run.clients() + " is fewer than the " + agents
                    + " agents: each agent needs a client at least");
        }
        long[] clients = cumulativeFloors(run.clients(), weights);
        long[] milliRate = cumulativeFloors(Math.round(run.rate() * 1000), weights);
        long[] requests = cumulativeFloors(run.requests(), weights);
        long[] warmupRequests = cumulativeFloors(run.warmupRequests(), weights);
        int weightSum = 0;
        for (int w : weights) {
            weightSum += w;
        }
        List<LoadSpec> parts = new ArrayList<>();
        int first = run.firstClientIndex();
        int weightBefore = 0;
        for (int i = 0; i < agents; i++) {
            if (clients[i] < 1) {
                throw new IllegalArgumentException("--clients " + run.clients() + " leaves agent " + (i + 1)
                        + " without a client at its weight; give more clients");
            }
            if (run.openModel() && milliRate[i] < 1) {
                throw new IllegalArgumentException("--rate " + run.rate() + " leaves agent " + (i + 1)
                        + " without requests at its weight; give a higher rate");
            }
            if (run.requests() > 0 && requests[i] < 1) {
                throw new IllegalArgumentException("--requests " + run.requests() + " leaves agent " + (i + 1)
                        + " nothing to send; give more requests");
            }
            // the same expression for agent i's end and agent i+1's start: the population's parts tile it exactly
            AgentShare place = new AgentShare(i, agents, run.clients(), (double) weightBefore / weightSum,
                    (double) (weightBefore + weights[i]) / weightSum);
            parts.add(run.part((int) clients[i], run.openModel() ? milliRate[i] / 1000.0 : 0, requests[i],
                    warmupRequests[i], first, place));
            first += (int) clients[i];
            weightBefore += weights[i];
        }
        return parts;
    }
}
