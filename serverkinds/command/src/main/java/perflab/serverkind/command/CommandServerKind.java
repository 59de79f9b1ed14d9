package perflab.serverkind.command;

import perflab.core.server.ServerFile;
import perflab.core.server.ServerKind;
import perflab.core.server.ServerPlan;
import perflab.core.server.ServerRequest;
import perflab.core.workload.WorkloadSetting;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The kind of SUT a server file declares ({@link ServerFile}): any program, a product's start script, a JVM or not.
 * It lays out the program's command, environment and files for one run, its home copied for the run
 * ({@link RunCopy}), the settings under test filled in: the JVM flags where the file says they go, the server's own
 * knobs into its placeholders. The run starts it in a process group of its own, waits until it serves as the file
 * says, samples its whole tree and stops it the file's way.
 */
public final class CommandServerKind implements ServerKind {
    public static final String NAME = "command";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean startsServerFiles() {
        return true;
    }

    @Override
    public ServerPlan plan(ServerRequest r) {
        ServerFile f = r.server();
        if (f == null) {
            throw new IllegalArgumentException("the " + NAME + " kind starts servers from server files (--server FILE)");
        }
        return plan(r, f, ServerHome.mavenRepository(), ServerHome.cache());
    }

    ServerPlan plan(ServerRequest r, ServerFile f, Path repository, Path cache) {
        boolean jvm = f.jvm().mode() != ServerFile.Jvm.Mode.NONE;
        if (!jvm) {
            refuseJvmSettings(r, f);
        }
        Path home = f.home() == null ? null : ServerHome.resolve(f, repository, cache);
        Path copy = home == null ? null : r.runDir().resolve(r.process() + "-home").toAbsolutePath();
        // in the command and env only where the file says the flags go there: never twice, never to a non-JVM
        boolean inPlaceholder = f.jvm().mode() == ServerFile.Jvm.Mode.PLACEHOLDER;
        String jvmFlags = jvm ? String.join(" ", r.jvmFlags()) : "";
        String placeholderFlags = inPlaceholder ? jvmFlags : "";
        Map<String, String> values = values(r, f, copy, placeholderFlags);
        Placeholders p = new Placeholders(values);

        List<String> command = new ArrayList<>();
        if (r.sut().cpus() != null) {
            command.addAll(List.of("taskset", "-c", r.sut().cpus()));
        }
        for (String word : f.command()) {
            if (word.equals("{jvm}")) {
                if (inPlaceholder) {
                    command.addAll(r.jvmFlags()); // a word that is the flags alone is as many words as there are flags
                }
            } else {
                command.add(p.fill(word, f.source() + ": command"));
            }
        }
        Map<String, String> env = new LinkedHashMap<>();
        f.env().forEach((k, v) -> env.put(k, p.fill(v, f.source() + ": env." + k)));
        if (r.sut().javaHome() != null) {
            env.putIfAbsent("JAVA_HOME", r.sut().javaHome()); // --java-home reaches a start script through JAVA_HOME
        }
        Map<Path, String> files = new LinkedHashMap<>();
        Set<Path> written = new HashSet<>();
        for (String rel : f.files()) {
            files.put(copy.resolve(rel), p.fill(read(home, rel, f), f.source() + ": files: " + rel));
            written.add(Path.of(rel));
        }
        for (Map.Entry<String, String> t : f.templates().entrySet()) {
            files.put(copy.resolve(t.getKey()), p.fill(read(Path.of(t.getValue()), "", f),
                    f.source() + ": templates: " + t.getValue()));
            written.add(Path.of(t.getKey()));
        }
        if (jvm && f.jvm().mode() == ServerFile.Jvm.Mode.ENV) {
            String name = f.jvm().target();
            String before = env.getOrDefault(name, System.getenv(name));
            env.put(name, (before == null || before.isBlank() ? "" : before + " ") + jvmFlags);
        } else if (jvm && f.jvm().mode() == ServerFile.Jvm.Mode.FILE) {
            Path rel = Path.of(f.jvm().target());
            String before = files.containsKey(copy.resolve(rel)) ? files.get(copy.resolve(rel))
                    : Files.isRegularFile(home.resolve(rel)) ? read(home, rel.toString(), f) : "";
            StringBuilder text = new StringBuilder(before);
            if (!before.isEmpty() && !before.endsWith("\n")) {
                text.append('\n');
            }
            r.jvmFlags().forEach(flag -> text.append(flag).append('\n')); // one flag a line: a jvm.options file
            files.put(copy.resolve(rel), text.toString());
            written.add(rel);
        }
        if (copy != null) {
            try {
                RunCopy.make(home, copy, written);
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot copy the home " + home + " for the run: " + e.getMessage());
            }
        }
        ServerFile.Ready ready = ready(f, p);
        ServerFile.Stop stop = new ServerFile.Stop(f.stop().signal(),
                f.stop().command().stream().map(w -> p.fill(w, f.source() + ": stop.command")).toList(), f.stop().grace());
        String url = f.url() == null ? null : checkedUrl(p.fill(f.url(), f.source() + ": url"), f.source() + ": url");
        ServerPlan.Program program = new ServerPlan.Program(env, copy != null ? copy : r.runDir().toAbsolutePath(), files,
                portNames(f), url, ready, stop, f, home);
        return new ServerPlan(command, null, jvm, jvm ? r.gcLog() : null, null,
                jvm && r.jfr() ? r.process() + ".jfr" : null, program);
    }

    /** A server that is no JVM takes none of the JVM's settings: said at once rather than silently dropped. */
    private static void refuseJvmSettings(ServerRequest r, ServerFile f) {
        List<String> given = new ArrayList<>();
        if (r.sut().heap() != null) {
            given.add("--heap");
        }
        if (r.sut().gc() != null) {
            given.add("--gc");
        }
        if (!r.sut().jvmFlags().isEmpty()) {
            given.add("--jvm");
        }
        if (r.sut().javaHome() != null) {
            given.add("--java-home");
        }
        if (r.jfr()) {
            given.add("--jfr");
        }
        if (!given.isEmpty()) {
            throw new IllegalArgumentException(String.join(", ", given) + ": " + f.name() + " is no JVM (" + f.source()
                    + " says jvm: none)");
        }
    }

    /** Every placeholder's value for this run; ports as perflab's references to the ports it will choose. */
    private static Map<String, String> values(ServerRequest r, ServerFile f, Path copy, String jvmFlags) {
        Map<String, String> values = new LinkedHashMap<>();
        List<String> names = portNames(f);
        values.put("port", "{" + r.process() + "." + names.get(0) + "}");
        for (int i = 0; i < f.ports().size(); i++) {
            values.put("ports." + f.ports().get(i), "{" + r.process() + "." + names.get(i) + "}");
        }
        values.put("runDir", r.runDir().toAbsolutePath().toString());
        // what the file names beside itself (a web application it deploys), wherever perflab runs from
        Path source = f.source() == null ? null : Path.of(f.source()).toAbsolutePath().getParent();
        values.put("fileDir", source == null ? "." : source.toString());
        values.put("jvm", jvmFlags);
        values.put("javaHome", r.sut().javaHome() != null ? r.sut().javaHome() : System.getProperty("java.home"));
        if (copy != null) {
            values.put("home", copy.toString());
        }
        // a companion's port is known once it has started: left as a reference the run fills in then
        for (String c : f.companions()) {
            values.put(c + ".port", "{" + c + ".port}");
            values.put(c + ".url", r.companions().getOrDefault(c, "http://127.0.0.1:{" + c + ".port}"));
        }
        f.requireSettings(r.sut().settings());
        for (WorkloadSetting s : f.settings()) {
            String given = r.sut().settings().get(s.name());
            values.put(s.name(), given != null ? s.normalize(given) : s.defaultValue());
        }
        return values;
    }

    /**
     * The names the run gives the ports it chooses: the first is {@code port} (what the run's messages and the
     * driver's default URL read), the others keep the file's names.
     */
    static List<String> portNames(ServerFile f) {
        List<String> names = new ArrayList<>(f.ports());
        names.set(0, "port");
        return names;
    }

    private static ServerFile.Ready ready(ServerFile f, Placeholders p) {
        ServerFile.Ready r = f.ready();
        return switch (r.kind()) {
            case HTTP -> new ServerFile.Ready(r.kind(), checkedUrl(p.fill(r.target(), f.source() + ": ready.http"),
                    f.source() + ": ready.http"), r.minStatus(), r.maxStatus(), r.timeout());
            case TCP -> new ServerFile.Ready(r.kind(), portNames(f).get(f.ports().indexOf(r.target())), r.minStatus(),
                    r.maxStatus(), r.timeout());
            case LINE -> r;
        };
    }

    /**
     * {@code url} as it will be once its ports are filled in, checked to be a URL now: a bad one would otherwise
     * only show as a server that never gets ready.
     */
    private static String checkedUrl(String url, String where) {
        try {
            java.net.URI.create(url.replaceAll("\\{[a-z][a-z0-9-]*\\.[a-z][a-z0-9-]*}", "1")).toURL();
        } catch (IllegalArgumentException | java.net.MalformedURLException e) {
            throw new IllegalArgumentException(where + ": '" + url + "' is not a URL: " + e.getMessage());
        }
        return url;
    }

    private static String read(Path home, String rel, ServerFile f) {
        Path file = rel.isEmpty() ? home : home.resolve(rel);
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalArgumentException(f.source() + ": files: cannot read " + file + ": " + e.getMessage());
        }
    }
}
