package perflab.agents.deploy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * Starts a run's agents wherever they run (processes on this machine, hosts over SSH; a Kubernetes deployer would
 * create pods the same way) and stops whatever of them still runs at the end. Each agent dials the controller
 * with the run's token, which the deployer hands it on its standard input (never on a command line, where other
 * users of the host could read it); an agent exits when its standard input closes.
 */
public interface AgentDeployer extends AutoCloseable {
    /** The agents' names, in the order of the split. */
    List<String> names();

    /** {@code prefix-1} .. {@code prefix-count}: the names of agents that have no host of their own to be named by. */
    static List<String> numbered(String prefix, int count) {
        List<String> names = new java.util.ArrayList<>();
        for (int i = 1; i <= count; i++) {
            names.add(prefix + "-" + i);
        }
        return names;
    }

    /** The address the controller listens on so that every agent reaches it. */
    InetAddress controllerAddress();

    /** Starts every agent; an agent that cannot start fails the whole deployment with one line saying why. */
    void deploy(InetSocketAddress controller, String token);

    /** Why agent {@code name} is gone, in one line, if its process has ended; null while it runs. */
    String ended(String name);

    /** Stops every agent still running; waits a bounded time. */
    @Override
    void close();
}
