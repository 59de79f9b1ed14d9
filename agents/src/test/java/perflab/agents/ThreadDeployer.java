package perflab.agents;

import perflab.agents.deploy.AgentDeployer;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Agents as threads of the test's JVM, each a real {@link Agent} on a real gRPC stream to the controller; and, when
 * asked, an impostor that dials with a wrong token, to see it refused.
 */
final class ThreadDeployer implements AgentDeployer {
    private final int count;
    private final boolean impostor;
    private final Map<String, Thread> threads = new LinkedHashMap<>();
    final Map<String, Integer> exits = new java.util.concurrent.ConcurrentHashMap<>();

    ThreadDeployer(int count, boolean impostor) {
        this.count = count;
        this.impostor = impostor;
    }

    @Override
    public List<String> names() {
        return AgentDeployer.numbered("thread", count);
    }

    @Override
    public InetAddress controllerAddress() {
        return InetAddress.getLoopbackAddress();
    }

    @Override
    public void deploy(InetSocketAddress controller, String token) {
        List<String> names = new ArrayList<>(names());
        if (impostor) {
            // a real agent's name, but not the run's token
            start("impostor", names.get(0), "0".repeat(token.length()), controller);
        }
        for (String name : names) {
            start(name, name, token, controller);
        }
    }

    private void start(String key, String name, String token, InetSocketAddress controller) {
        Thread t = new Thread(() -> {
            try {
                exits.put(key, new Agent(name, token).run(controller.getHostString(), controller.getPort()));
            } catch (InterruptedException e) {
                exits.put(key, -1);
            }
        }, "agent-" + key);
        t.setDaemon(true);
        t.start();
        threads.put(key, t);
    }

    @Override
    public String ended(String name) {
        Thread t = threads.get(name);
        return t != null && !t.isAlive() ? "its thread ended with " + exits.get(name) : null;
    }

    /** Waits for every agent thread to end (their streams closed). */
    @Override
    public void close() {
        for (Thread t : threads.values()) {
            try {
                t.join(15_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
