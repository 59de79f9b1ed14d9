package perflab.agents.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * The files an agent on another host needs: this JVM's classpath with the jars its jars' manifests name (the CLI
 * jar lists its libraries in Class-Path, relative to itself). Each keeps its path relative to the first jar's
 * directory, so that the manifest's references hold on the host; entries from elsewhere (PERFLAB_CLASSPATH's
 * workloads) go under {@code extra/}. Their set is named by a digest of names, sizes and times: a host that has
 * that directory already is sent nothing.
 */
final class AgentJars {
    /** A file to send: where it is here, and its path under the agent's directory on the host. */
    record Shipped(Path local, String remote) {
    }

    private final Map<String, Shipped> files = new LinkedHashMap<>();
    private final List<String> classpath = new ArrayList<>();

    static AgentJars ofThisJvm() {
        return of(System.getProperty("java.class.path"));
    }

    static AgentJars of(String classpath) {
        AgentJars jars = new AgentJars();
        Path base = null;
        for (String entry : classpath.split(java.io.File.pathSeparator)) {
            if (entry.isBlank()) {
                continue;
            }
            Path p = Path.of(entry).toAbsolutePath().normalize();
            if (!Files.isRegularFile(p)) {
                throw new IllegalStateException("agents on other hosts need perflab's jars: the classpath entry " + p
                        + " is not a jar (build with ./perflab or mvn package)");
            }
            base = base == null ? p.getParent() : base;
            String remote = p.startsWith(base) ? base.relativize(p).toString() : "extra/" + p.getFileName();
            jars.classpath.add(remote);
            jars.add(p, remote);
        }
        return jars;
    }

    private void add(Path jar, String remote) {
        if (files.containsKey(remote)) {
            return;
        }
        files.put(remote, new Shipped(jar, remote));
        try (JarFile j = new JarFile(jar.toFile())) {
            Manifest m = j.getManifest();
            String refs = m == null ? null : m.getMainAttributes().getValue("Class-Path");
            if (refs == null) {
                return;
            }
            String dir = remote.contains("/") ? remote.substring(0, remote.lastIndexOf('/') + 1) : "";
            for (String ref : refs.trim().split("\\s+")) {
                Path local = jar.getParent().resolve(ref).normalize();
                if (Files.isRegularFile(local)) {
                    add(local, dir + ref);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + jar + ": " + e.getMessage(), e);
        }
    }

    List<Shipped> files() {
        return List.copyOf(files.values());
    }

    /** The agent's classpath on the host, under {@code dir}. */
    String classpath(String dir) {
        return String.join(":", classpath.stream().map(c -> dir + "/" + c).toList());
    }

    /** A digest of every file's name, size and time: the name of the set's directory on a host. */
    String digest() {
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            for (Shipped s : files.values()) {
                d.update((s.remote() + "\0" + Files.size(s.local()) + "\0" + Files.getLastModifiedTime(s.local()).toMillis()
                        + "\n").getBytes(StandardCharsets.UTF_8));
            }
            return HexFormat.of().formatHex(d.digest()).substring(0, 16);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
