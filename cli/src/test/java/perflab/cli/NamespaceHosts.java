package perflab.cli;

import perflab.testsupport.Poll;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Hosts on one machine, as real as the test can make them: network namespaces joined by a bridge in the root
 * namespace, addresses from the benchmarking range 198.18.0.0/15 (nothing else is ever addressed), and in each
 * agent host a real OpenSSH server started on its namespace address with a host key and an authorized key of the
 * test's own. The root namespace (the controller's) is 198.18.S.1; host i is 198.18.S.(i+2). Needs root, ip(8) and
 * sshd; {@link #unavailable} says why not.
 */
final class NamespaceHosts implements AutoCloseable {
    static final int SSH_PORT = 2222;

    final String prefix = "pl" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0xFFFF));
    final int subnet = 18 + ThreadLocalRandom.current().nextInt(200); // 198.18.<subnet>.0/24
    final Path dir;
    final Path clientKey;
    final Path knownHosts;
    private final List<String> namespaces = new ArrayList<>();
    private final List<Process> sshds = new ArrayList<>();
    private boolean bridge;

    NamespaceHosts(Path dir) {
        this.dir = dir;
        this.clientKey = dir.resolve("id_ecdsa");
        this.knownHosts = dir.resolve("known_hosts");
    }

    /** Why this machine cannot make such hosts, or null when it can. */
    static String unavailable() {
        if (!"root".equals(System.getProperty("user.name"))) {
            return "network namespaces need root (CI runs as root)";
        }
        for (String tool : List.of("/usr/sbin/sshd", "/usr/bin/ssh-keygen", "/usr/sbin/ip", "/bin/ip")) {
            if (tool.endsWith("/ip")) {
                continue;
            }
            if (!Files.isExecutable(Path.of(tool))) {
                return tool + " is missing (Debian: openssh-server, openssh-client)";
            }
        }
        if (!Files.isExecutable(Path.of("/usr/sbin/ip")) && !Files.isExecutable(Path.of("/bin/ip"))) {
            return "ip(8) is missing (Debian: iproute2)";
        }
        return null;
    }

    String controllerAddress() {
        return "198.18." + subnet + ".1";
    }

    String address(int host) {
        return "198.18." + subnet + "." + (host + 2);
    }

    String namespace(int host) {
        return prefix + "-h" + host;
    }

    /** Makes the bridge and {@code count} hosts, with a client key the hosts' sshd accept. */
    void create(int count) throws IOException, InterruptedException {
        run("ssh-keygen", "-q", "-t", "ecdsa", "-N", "", "-f", clientKey.toString());
        run("ip", "link", "add", prefix + "br", "type", "bridge");
        bridge = true;
        run("ip", "addr", "add", controllerAddress() + "/24", "dev", prefix + "br");
        run("ip", "link", "set", prefix + "br", "up");
        for (int i = 0; i < count; i++) {
            String ns = namespace(i);
            run("ip", "netns", "add", ns);
            namespaces.add(ns);
            run("ip", "-n", ns, "link", "set", "lo", "up");
            run("ip", "link", "add", prefix + "v" + i, "type", "veth", "peer", "name", "eth0", "netns", ns);
            run("ip", "link", "set", prefix + "v" + i, "master", prefix + "br");
            run("ip", "link", "set", prefix + "v" + i, "up");
            run("ip", "-n", ns, "addr", "add", address(i) + "/24", "dev", "eth0");
            run("ip", "-n", ns, "link", "set", "eth0", "up");
        }
    }

    /** Starts sshd in host {@code i}'s namespace; its host key goes into the known_hosts file unless told not to. */
    void startSsh(int i, boolean known) throws IOException, InterruptedException {
        Path hostKey = dir.resolve("host-" + i);
        run("ssh-keygen", "-q", "-t", "ecdsa", "-N", "", "-f", hostKey.toString());
        Files.copy(dir.resolve("id_ecdsa.pub"), dir.resolve("authorized_keys"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Path config = dir.resolve("sshd-" + i + ".conf");
        Files.writeString(config, String.join("\n",
                "Port " + SSH_PORT, "ListenAddress " + address(i), "HostKey " + hostKey, "PidFile none",
                "AuthorizedKeysFile " + dir.resolve("authorized_keys"), "StrictModes no", "PasswordAuthentication no",
                "KbdInteractiveAuthentication no", "PermitRootLogin prohibit-password", "UsePAM no",
                "Subsystem sftp internal-sftp", "") );
        Files.createDirectories(Path.of("/run/sshd")); // its privilege separation directory
        if (known) {
            String pub = Files.readString(dir.resolve("host-" + i + ".pub")).trim();
            String[] f = pub.split(" ");
            Files.writeString(knownHosts, "[" + address(i) + "]:" + SSH_PORT + " " + f[0] + " " + f[1] + "\n",
                    java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
        }
        Process p = new ProcessBuilder("ip", "netns", "exec", namespace(i), "/usr/sbin/sshd", "-D", "-e", "-f", config.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("sshd-" + i + ".log").toFile()).start();
        sshds.add(p);
        try {
            Poll.until("sshd in " + namespace(i) + " to listen", Duration.ofSeconds(20), () -> {
                if (!p.isAlive()) {
                    throw new AssertionError("sshd ended");
                }
                return listening(i);
            });
        } catch (AssertionError e) {
            throw new IOException("sshd in " + namespace(i) + " did not start (" + e.getMessage() + "): "
                    + Files.readString(dir.resolve("sshd-" + i + ".log")), e);
        }
    }

    private boolean listening(int i) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("ip", "netns", "exec", namespace(i), "ss", "-ltnH", "sport = :" + SSH_PORT)
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        p.waitFor(10, TimeUnit.SECONDS);
        return out.contains(address(i) + ":" + SSH_PORT);
    }

    /** A command that runs in host {@code i}'s namespace. */
    List<String> in(int i, List<String> command) {
        List<String> all = new ArrayList<>(List.of("ip", "netns", "exec", namespace(i)));
        all.addAll(command);
        return all;
    }

    /** The pids of the processes whose command line contains {@code text}, in every namespace. */
    static List<Long> pidsWith(String text) {
        return ProcessHandle.allProcesses().filter(h -> h.info().commandLine().orElse("").contains(text))
                .map(ProcessHandle::pid).toList();
    }

    static void run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed: " + out.trim());
        }
    }

    @Override
    public void close() {
        for (Process p : sshds) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        for (String ns : namespaces) {
            // whatever still runs in the namespace goes with it
            quietly("ip", "netns", "pids", ns);
            try {
                Process p = new ProcessBuilder("ip", "netns", "pids", ns).start();
                for (String pid : new String(p.getInputStream().readAllBytes()).split("\\s+")) {
                    if (!pid.isBlank()) {
                        ProcessHandle.of(Long.parseLong(pid)).ifPresent(ProcessHandle::destroyForcibly);
                    }
                }
            } catch (IOException | RuntimeException e) {
                // best effort
            }
            quietly("ip", "netns", "del", ns);
        }
        if (bridge) {
            quietly("ip", "link", "del", prefix + "br");
        }
    }

    private static void quietly(String... command) {
        try {
            new ProcessBuilder(command).redirectErrorStream(true).start().waitFor(10, TimeUnit.SECONDS);
        } catch (IOException | InterruptedException e) {
            // best effort
        }
    }
}
