package perflab.agents.deploy;

import perflab.agents.AgentsFailure;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code --agents local:N}: N agent JVMs on this machine, each with this JVM's classpath and, given CPU lists, pinned
 * with taskset (agent i to list i, or all to the one list given). For more driver processes than one JVM uses well,
 * and for testing the distributed run without hosts. Their output goes to {@code agent-<name>.log} in the run's
 * directory.
 */
public final class LocalDeployer implements AgentDeployer {
    /** The agent JVM's own settings: the same heap and collector as perflab's driver JVM, named (never ergonomic). */
    static final List<String> JVM_FLAGS = List.of("-Xms512m", "-Xmx512m", "-XX:+UseG1GC");

    private final int count;
    private final List<String> cpuLists;
    private final Path logDir;
    private final Map<String, Process> processes = new LinkedHashMap<>();

    /**
     * @param cpuLists null, one taskset list for all, or one per agent
     * @param logDir   where each agent's output goes
     */
    public LocalDeployer(int count, List<String> cpuLists, Path logDir) {
        if (cpuLists != null && cpuLists.size() != 1 && cpuLists.size() != count) {
            throw new IllegalArgumentException("--driver-cpus with --agents local:" + count + " takes one CPU list for all "
                    + "agents or " + count + " separated by '/', got " + cpuLists.size());
        }
        this.count = count;
        this.cpuLists = cpuLists;
        this.logDir = logDir;
    }

    @Override
    public List<String> names() {
        return AgentDeployer.numbered("local", count);
    }

    @Override
    public InetAddress controllerAddress() {
        return InetAddress.getLoopbackAddress();
    }

    @Override
    public void deploy(InetSocketAddress controller, String token) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> names = names();
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            List<String> command = new ArrayList<>();
            if (cpuLists != null) {
                command.addAll(List.of("taskset", "-c", cpuLists.get(cpuLists.size() == 1 ? 0 : i)));
            }
            command.add(java);
            command.addAll(JVM_FLAGS);
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), "perflab.agents.AgentMain",
                    "--controller", controller.getHostString() + ":" + controller.getPort(), "--name", name));
            Path log = logDir.resolve("agent-" + name + ".log");
            try {
                Process p = new ProcessBuilder(command).redirectErrorStream(true)
                        .redirectOutput(log.toFile()).start();
                processes.put(name, p);
                OutputStream stdin = p.getOutputStream(); // kept open: the agent exits when it closes
                stdin.write((token + "\n").getBytes(StandardCharsets.US_ASCII));
                stdin.flush();
            } catch (IOException e) {
                throw new AgentsFailure("agent " + name + " could not start: " + e.getMessage());
            }
        }
    }

    @Override
    public String ended(String name) {
        Process p = processes.get(name);
        if (p == null || p.isAlive()) {
            return null;
        }
        return "its process exited with status " + p.exitValue() + lastWords(logDir.resolve("agent-" + name + ".log"));
    }

    /** The last line a process wrote, as ": line", or nothing. */
    static String lastWords(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            for (int i = lines.size() - 1; i >= 0; i--) {
                if (!lines.get(i).isBlank()) {
                    return ": " + lines.get(i).trim();
                }
            }
        } catch (IOException | RuntimeException e) {
            // no log: the status alone
        }
        return "";
    }

    @Override
    public void close() {
        for (Process p : processes.values()) {
            try {
                p.getOutputStream().close(); // the agent's cue to exit
            } catch (IOException e) {
                // already gone
            }
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        for (Process p : processes.values()) {
            try {
                if (!p.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                    p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }
}
