package perflab.agents.deploy;

import org.apache.sshd.client.SshClient;
import org.apache.sshd.client.channel.ChannelExec;
import org.apache.sshd.client.channel.ClientChannelEvent;
import org.apache.sshd.client.config.hosts.HostConfigEntryResolver;
import org.apache.sshd.client.keyverifier.KnownHostsServerKeyVerifier;
import org.apache.sshd.client.keyverifier.RejectAllServerKeyVerifier;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.keyprovider.FileKeyPairProvider;
import org.apache.sshd.sftp.client.SftpClient;
import org.apache.sshd.sftp.client.SftpClientFactory;
import perflab.agents.AgentsFailure;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code --agents ssh:user@host[:port],...}: one agent per host, deployed over SSH with Apache MINA SSHD. Key
 * authentication only (the given key, or ~/.ssh's id_ed25519, id_ecdsa, id_rsa); the host's key must be in the
 * known_hosts file (~/.ssh/known_hosts or the one given), and one that is missing or changed fails the deployment:
 * it is never accepted silently. The host's {@code java} must be 17 or later. perflab's jars go to
 * {@code ~/.cache/perflab-agent/<digest>/} over SFTP unless that set is there already; other builds' directories
 * unused for a week are removed. The agent runs as the session's command: the token on its standard input, its
 * output in {@code agent-<name>.log} here; when the session ends, its input closes and it exits.
 */
public final class SshDeployer implements AgentDeployer {
    static final Duration TIMEOUT = Duration.ofSeconds(15);
    static final String REMOTE_ROOT = ".cache/perflab-agent";
    /** A build's directory on a host that no run has used for this many days is removed. */
    static final int PRUNE_AFTER_DAYS = 7;
    private static final Pattern JAVA_VERSION = Pattern.compile("version \"(\\d+)(?:[.\"-])");

    private final List<SshHost> hosts;
    private final Path key;
    private final Path knownHosts;
    private final InetAddress controller;
    private final Path logDir;
    private final Map<String, ChannelExec> agents = new LinkedHashMap<>();
    private final List<ClientSession> sessions = new ArrayList<>();
    private SshClient client;

    /**
     * @param key        the private key to authenticate with; null: ~/.ssh's usual ones
     * @param knownHosts the known_hosts file; null: ~/.ssh/known_hosts
     * @param controller the address the agents dial; null: this machine's address facing the first host
     */
    public SshDeployer(List<SshHost> hosts, Path key, Path knownHosts, InetAddress controller, Path logDir) {
        this.hosts = List.copyOf(hosts);
        this.key = key;
        this.knownHosts = knownHosts != null ? knownHosts : home().resolve(".ssh/known_hosts");
        this.controller = controller;
        this.logDir = logDir;
        if (key != null && !Files.isReadable(key)) {
            throw new IllegalArgumentException("--agents-key " + key + ": no such key (or it cannot be read)");
        }
        if (!Files.isReadable(this.knownHosts)) {
            throw new IllegalArgumentException("no known_hosts file at " + this.knownHosts + ": the agents' host keys are "
                    + "checked against it; add them (ssh-keyscan -p PORT HOST >> " + this.knownHosts + ") or give --agents-known-hosts");
        }
        if (keys().isEmpty()) {
            throw new IllegalArgumentException("no SSH key: none of ~/.ssh/id_ed25519, id_ecdsa, id_rsa exists; give --agents-key");
        }
    }

    @Override
    public List<String> names() {
        List<String> names = new ArrayList<>();
        for (SshHost h : hosts) {
            String name = h.agentName();
            int n = 2;
            while (names.contains(name)) {
                name = h.agentName() + "-" + n++;
            }
            names.add(name);
        }
        return names;
    }

    @Override
    public InetAddress controllerAddress() {
        if (controller != null) {
            return controller;
        }
        SshHost first = hosts.get(0);
        try (DatagramSocket probe = new DatagramSocket()) {
            probe.connect(new InetSocketAddress(first.host(), first.port())); // picks the route; sends nothing
            return probe.getLocalAddress();
        } catch (IOException e) {
            throw new AgentsFailure("cannot find this machine's address facing " + first.host() + ": " + e.getMessage()
                    + "; give --agents-controller");
        }
    }

    @Override
    public void deploy(InetSocketAddress controllerAt, String token) {
        client = SshClient.setUpDefaultClient();
        client.setServerKeyVerifier(new KnownHostsServerKeyVerifier(RejectAllServerKeyVerifier.INSTANCE, knownHosts));
        client.setKeyIdentityProvider(new FileKeyPairProvider(keys()));
        client.setHostConfigEntryResolver(HostConfigEntryResolver.EMPTY); // ~/.ssh/config plays no part
        client.setUserAuthFactories(List.of(org.apache.sshd.client.auth.pubkey.UserAuthPublicKeyFactory.INSTANCE));
        client.start();
        AgentJars jars = AgentJars.ofThisJvm();
        String dir = REMOTE_ROOT + "/" + jars.digest();
        List<String> names = names();
        // one host after another: hosts sharing a home directory (NFS) then copy the jars once
        for (int i = 0; i < hosts.size(); i++) {
            SshHost host = hosts.get(i);
            String name = names.get(i);
            ClientSession session = connect(host);
            sessions.add(session);
            checkJava(session, host);
            copy(session, host, jars, dir);
            pruneOldBuilds(session, jars.digest());
            start(session, host, name, jars.classpath(dir), controllerAt, token);
        }
    }

    private ClientSession connect(SshHost host) {
        ClientSession session;
        try {
            session = client.connect(host.user(), host.host(), host.port()).verify(TIMEOUT).getSession();
        } catch (IOException e) {
            throw new AgentsFailure("agent " + host + " could not start: cannot connect: " + rootMessage(e));
        }
        try {
            session.auth().verify(TIMEOUT);
            return session;
        } catch (IOException e) {
            String why = rootMessage(e);
            closeQuietly(session);
            if (allMessages(e).contains("server key")) {
                throw new AgentsFailure("agent " + host + " could not start: its host key is not in " + knownHosts
                        + " or does not match it; check the key and add it (ssh-keyscan -p " + host.port() + " "
                        + host.host() + ")");
            }
            throw new AgentsFailure("agent " + host + " could not start: " + host.user() + " refused every key offered ("
                    + String.join(", ", keys().stream().map(Path::toString).toList()) + "): " + why);
        }
    }

    private void checkJava(ClientSession session, SshHost host) {
        Exec r = exec(session, "java -version");
        Matcher m = JAVA_VERSION.matcher(r.output);
        if (r.status != 0 || !m.find() || Integer.parseInt(m.group(1)) < 17) {
            throw new AgentsFailure("agent " + host + " could not start: no java 17 or later on its PATH (java -version: "
                    + (r.status != 0 ? "exit status " + r.status + " " : "") + firstLine(r.output) + ")");
        }
    }

    private void copy(ClientSession session, SshHost host, AgentJars jars, String dir) {
        try (SftpClient sftp = SftpClientFactory.instance().createSftpClient(session)) {
            if (exists(sftp, dir + "/.complete")) {
                return;
            }
            for (AgentJars.Shipped f : jars.files()) {
                String target = dir + "/" + f.remote();
                mkdirs(sftp, target.substring(0, target.lastIndexOf('/')));
                try (OutputStream out = sftp.write(target); InputStream in = Files.newInputStream(f.local())) {
                    in.transferTo(out);
                }
            }
            try (OutputStream out = sftp.write(dir + "/.complete")) {
                out.write(jars.digest().getBytes(StandardCharsets.US_ASCII));
            }
        } catch (IOException e) {
            throw new AgentsFailure("agent " + host + " could not start: copying perflab's jars over SFTP failed: "
                    + rootMessage(e));
        }
    }

    private void start(ClientSession session, SshHost host, String name, String classpath, InetSocketAddress at,
                       String token) {
        String command = "exec java " + String.join(" ", LocalDeployer.JVM_FLAGS) + " -cp " + classpath
                + " perflab.agents.AgentMain --controller " + hostPort(at) + " --name " + name;
        try {
            ChannelExec channel = session.createExecChannel(command);
            OutputStream log = Files.newOutputStream(logDir.resolve("agent-" + name + ".log"));
            channel.setOut(log);
            channel.setErr(log);
            channel.open().verify(TIMEOUT);
            OutputStream stdin = channel.getInvertedIn(); // kept open: the agent exits when it closes
            stdin.write((token + "\n").getBytes(StandardCharsets.US_ASCII));
            stdin.flush();
            agents.put(name, channel);
        } catch (IOException e) {
            throw new AgentsFailure("agent " + host + " could not start: " + rootMessage(e));
        }
    }

    @Override
    public String ended(String name) {
        ChannelExec channel = agents.get(name);
        if (channel == null || !channel.isClosed()) {
            return null;
        }
        Integer status = channel.getExitStatus();
        return (status == null ? "its session closed" : "its process exited with status " + status)
                + LocalDeployer.lastWords(logDir.resolve("agent-" + name + ".log"));
    }

    @Override
    public void close() {
        for (ChannelExec channel : agents.values()) {
            try {
                channel.getInvertedIn().close(); // the agent's cue to exit
            } catch (IOException e) {
                // gone
            }
        }
        for (ChannelExec channel : agents.values()) {
            channel.waitFor(EnumSet.of(ClientChannelEvent.CLOSED), Duration.ofSeconds(5));
            channel.close(true);
        }
        sessions.forEach(SshDeployer::closeQuietly);
        if (client != null) {
            client.stop();
        }
    }

    /**
     * Marks this build's jars as used now (their {@code .complete}) and removes the other builds' directories under
     * {@link #REMOTE_ROOT} that nothing has touched for {@value #PRUNE_AFTER_DAYS} days: every build a host ever ran
     * would otherwise stay there (about 18 MB each). A directory with anything newer is kept: a build another
     * controller uses, or is copying, now. Housekeeping only: a host where it fails still runs its agent.
     */
    private void pruneOldBuilds(ClientSession session, String digest) {
        exec(session, "cd " + REMOTE_ROOT + " && touch " + digest + "/.complete && for d in */; do d=${d%/}; "
                + "[ -d \"$d\" ] || continue; [ \"$d\" = " + digest + " ] && continue; "
                + "find \"$d\" -maxdepth 1 -mtime -" + PRUNE_AFTER_DAYS + " | grep -q . && continue; rm -rf -- \"$d\"; done");
    }

    /** A command's exit status and output (stdout and stderr together). */
    private record Exec(int status, String output) {
    }

    private Exec exec(ClientSession session, String command) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ChannelExec channel = session.createExecChannel(command)) {
            channel.setOut(out);
            channel.setErr(out);
            channel.open().verify(TIMEOUT);
            channel.waitFor(EnumSet.of(ClientChannelEvent.CLOSED), TIMEOUT);
            Integer status = channel.getExitStatus();
            return new Exec(status == null ? -1 : status, out.toString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            return new Exec(-1, rootMessage(e));
        }
    }

    private static boolean exists(SftpClient sftp, String path) {
        try {
            sftp.stat(path);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static void mkdirs(SftpClient sftp, String dir) throws IOException {
        StringBuilder path = new StringBuilder();
        for (String part : dir.split("/")) {
            path.append(path.length() == 0 ? "" : "/").append(part);
            if (!exists(sftp, path.toString())) {
                sftp.mkdir(path.toString());
            }
        }
    }

    private List<Path> keys() {
        if (key != null) {
            return List.of(key);
        }
        List<Path> found = new ArrayList<>();
        for (String name : List.of("id_ed25519", "id_ecdsa", "id_rsa")) {
            Path p = home().resolve(".ssh").resolve(name);
            if (Files.isReadable(p)) {
                found.add(p);
            }
        }
        return found;
    }

    private static Path home() {
        return Path.of(System.getProperty("user.home"));
    }

    private static String hostPort(InetSocketAddress at) {
        String h = at.getAddress().getHostAddress();
        return (h.contains(":") ? "[" + h + "]" : h) + ":" + at.getPort();
    }

    private static String firstLine(String text) {
        String t = text.strip();
        int nl = t.indexOf('\n');
        return nl < 0 ? t : t.substring(0, nl);
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        String m = t.getMessage() != null ? t.getMessage() : e.getMessage();
        return m == null ? t.getClass().getSimpleName() : m;
    }

    /** Every message in the cause chain, lower case: MINA says "server key did not validate" at some level. */
    private static String allMessages(Throwable e) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = e; t != null && all.length() < 10_000; t = t.getCause() == t ? null : t.getCause()) {
            all.append(t.getMessage()).append(' ');
        }
        return all.toString().toLowerCase(java.util.Locale.ROOT);
    }

    private static void closeQuietly(ClientSession session) {
        try {
            session.close(true);
        } catch (RuntimeException e) {
            // closing anyway
        }
    }
}
