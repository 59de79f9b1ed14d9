package perflab.agents;

import perflab.agents.deploy.AgentDeployer;
import perflab.agents.deploy.LocalDeployer;

import java.nio.file.Path;
import java.util.List;

/**
 * {@code --agents SPEC}: where a run's load comes from when one driver process is not enough.
 * {@code local:N} starts N agent JVMs on this machine.
 *
 * @param local the number of local agents
 */
public record AgentsSpec(int local) {
    /** At most this many local agents: each is a JVM with a 512 MB heap. */
    static final int MAX_LOCAL = 16;

    public static AgentsSpec parse(String text) {
        String t = text == null ? "" : text.trim();
        if (t.startsWith("local:")) {
            int n;
            try {
                n = Integer.parseInt(t.substring("local:".length()).trim());
            } catch (NumberFormatException e) {
                n = -1;
            }
            if (n < 1 || n > MAX_LOCAL) {
                throw new IllegalArgumentException("--agents " + text + ": local:N needs N from 1 to " + MAX_LOCAL);
            }
            return new AgentsSpec(n);
        }
        if (t.startsWith("ssh:")) {
            throw new IllegalArgumentException("--agents " + text + ": agents over SSH are not built yet; use local:N");
        }
        throw new IllegalArgumentException("--agents '" + text + "' is not local:N");
    }

    /** How many agents the run has. */
    public int count() {
        return local;
    }

    /**
     * The deployer of these agents.
     *
     * @param driverCpus the --driver-cpus value: null, one CPU list for every agent, or one per agent separated by '/'
     * @param runDir     the run's directory, for the agents' logs
     */
    public AgentDeployer deployer(String driverCpus, Path runDir) {
        return new LocalDeployer(local, cpuLists(driverCpus), runDir);
    }

    /** The --driver-cpus lists: one for all agents, or one per agent separated by '/'; null for none. */
    public static List<String> cpuLists(String driverCpus) {
        return driverCpus == null ? null : List.of(driverCpus.split("/"));
    }
}
