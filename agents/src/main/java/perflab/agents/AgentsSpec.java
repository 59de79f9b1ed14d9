package perflab.agents;

import perflab.agents.deploy.AgentDeployer;
import perflab.agents.deploy.LocalDeployer;
import perflab.agents.deploy.SshDeployer;
import perflab.agents.deploy.SshHost;
import perflab.core.config.RunConfig;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code --agents SPEC} read: where a run's load comes from when one driver process is not enough.
 * {@code local:N} starts N agent JVMs on this machine; {@code ssh:user@host[:port],...} one agent on each host.
 *
 * @param local      the number of local agents (0 for ssh)
 * @param hosts      the ssh hosts (empty for local)
 * @param controller ssh: the address the agents dial, or null to take the one facing the first host
 * @param port       the controller's port, 0 for any free one
 */
public record AgentsSpec(int local, List<SshHost> hosts, RunConfig.Agents given, InetAddress controller, int port) {
    /** At most this many local agents: each is a JVM with a 512 MB heap. */
    static final int MAX_LOCAL = 16;

    /** Reads and checks {@code --agents} and its companions; every problem is one line. */
    public static AgentsSpec of(RunConfig.Agents given) {
        String t = given.spec().trim();
        if (t.startsWith("local:")) {
            int n;
            try {
                n = Integer.parseInt(t.substring("local:".length()).trim());
            } catch (NumberFormatException e) {
                n = -1;
            }
            if (n < 1 || n > MAX_LOCAL) {
                throw new IllegalArgumentException("--agents " + t + ": local:N needs N from 1 to " + MAX_LOCAL);
            }
            if (given.key() != null || given.knownHosts() != null || given.controller() != null) {
                throw new IllegalArgumentException("--agents-key, --agents-known-hosts and --agents-controller are for "
                        + "agents over ssh; local agents dial the controller on the loopback");
            }
            return new AgentsSpec(n, List.of(), given, null, 0);
        }
        if (t.startsWith("ssh:")) {
            List<SshHost> hosts = SshHost.parseAll(t.substring("ssh:".length()));
            InetAddress controller = null;
            int port = 0;
            if (given.controller() != null) {
                String c = given.controller().trim();
                int colon = c.lastIndexOf(':');
                boolean withPort = colon > 0 && (c.indexOf(':') == colon || c.startsWith("[")) && !c.endsWith("]");
                String address = withPort ? c.substring(0, colon) : c;
                try {
                    port = withPort ? Integer.parseInt(c.substring(colon + 1)) : 0;
                    controller = InetAddress.getByName(address.replace("[", "").replace("]", ""));
                } catch (NumberFormatException | UnknownHostException e) {
                    port = -1;
                }
                if (port < 0 || port > 65535) {
                    throw new IllegalArgumentException("--agents-controller '" + c + "' is not ADDRESS[:PORT]");
                }
            }
            return new AgentsSpec(0, hosts, given, controller, port);
        }
        throw new IllegalArgumentException("--agents '" + t + "' is not local:N or ssh:user@host[:port],...");
    }

    /** How many agents the run has. */
    public int count() {
        return hosts.isEmpty() ? local : hosts.size();
    }

    /** Whether the agents run on other hosts (and must reach the target there). */
    public boolean remote() {
        return !hosts.isEmpty();
    }

    public int controllerPort() {
        return port;
    }

    /**
     * The deployer of these agents.
     *
     * @param driverCpus the --driver-cpus value: null, one CPU list for every agent, or one per agent separated by '/'
     * @param runDir     the run's directory, for the agents' logs
     */
    public AgentDeployer deployer(String driverCpus, Path runDir) {
        if (remote()) {
            return new SshDeployer(hosts, given.key() == null ? null : Path.of(given.key()),
                    given.knownHosts() == null ? null : Path.of(given.knownHosts()), controller, runDir);
        }
        return new LocalDeployer(local, cpuLists(driverCpus), runDir);
    }

    /** The --driver-cpus lists: one for all agents, or one per agent separated by '/'; null for none. */
    public static List<String> cpuLists(String driverCpus) {
        return driverCpus == null ? null : List.of(driverCpus.split("/"));
    }
}
