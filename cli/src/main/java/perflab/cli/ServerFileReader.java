package perflab.cli;

import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;
import perflab.core.config.YamlTree;
import perflab.core.server.ServerFile;
import perflab.core.workload.WorkloadSetting;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a server file (docs/servers.md) into a {@link ServerFile}: every key known, every value checked, every
 * placeholder one the file may use. A mistake is one IllegalArgumentException naming the file, the line and the key
 * ({@code tomcat.yaml:7: ready: give one of http, line or tcp}). YAML's node tree is read rather than bound to
 * classes, for its line numbers; aliases are refused, so that a hostile file cannot blow up into a billion nodes.
 */
final class ServerFileReader {
    private static final List<String> KEYS = List.of("name", "description", "workload", "command", "home", "env",
            "files", "templates", "ports", "url", "ready", "stop", "jvm", "settings", "companions");
    private static final String NAME = "[A-Za-z][A-Za-z0-9_-]*";
    /** A server file is a page of text; anything larger is a mistake, not a server. */
    private static final int MAX_BYTES = 256 * 1024;
    private static final Duration DEFAULT_READY_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration DEFAULT_GRACE = Duration.ofSeconds(15);

    private final String file;
    private final YamlTree yaml;

    private ServerFileReader(String file) {
        this.file = file;
        this.yaml = new YamlTree(file, false);
    }

    static ServerFile read(Path path) throws IOException {
        String shown = path.toString();
        if (!Files.isRegularFile(path)) {
            throw new IllegalArgumentException("no such server file: " + shown);
        }
        if (Files.size(path) > MAX_BYTES) {
            throw new IllegalArgumentException(shown + ": over " + MAX_BYTES / 1024 + " KB; a server file is a page of YAML");
        }
        String text = Files.readString(path, StandardCharsets.UTF_8);
        String base = path.getFileName().toString().replaceFirst("\\.ya?ml$", "");
        return new ServerFileReader(shown).parse(text, base);
    }

    /** Reads {@code text} as the file {@code shown}; {@code defaultName} when it names no server. */
    static ServerFile fromText(String shown, String text, String defaultName) {
        return new ServerFileReader(shown).parse(text, defaultName);
    }

    private ServerFile parse(String text, String defaultName) {
        Node root = yaml.compose(text, MAX_BYTES);
        if (root == null) {
            throw new IllegalArgumentException(file + ": empty; a server file needs at least command: and ready:");
        }
        Map<String, Node> top = yaml.mapping(root, "the file");
        for (Map.Entry<String, Node> e : top.entrySet()) {
            if (!KEYS.contains(e.getKey())) {
                throw yaml.fail(e.getValue(), e.getKey(), "unknown key; a server file has " + String.join(", ", KEYS));
            }
        }
        String name = top.containsKey("name") ? yaml.matching(top.get("name"), "name", NAME, "a word of letters, digits, - and _")
                : defaultName;
        if (!name.matches(NAME)) {
            throw new IllegalArgumentException(file + ": name the server with name: (the file's name '" + defaultName
                    + "' is not a word of letters, digits, - and _)");
        }
        String workload = top.containsKey("workload") ? yaml.matching(top.get("workload"), "workload", "[a-z][a-z0-9-]*", "a workload's name") : null;
        String description = top.containsKey("description") ? yaml.scalar(top.get("description"), "description") : "";
        List<String> ports = top.containsKey("ports") ? portNames(top.get("ports")) : List.of("port");
        if (ports.isEmpty()) {
            throw yaml.fail(top.get("ports"), "ports", "name at least one port (the first is {port})");
        }
        List<WorkloadSetting> settings = top.containsKey("settings") ? settings(top.get("settings")) : List.of();
        List<String> companions = top.containsKey("companions") ? names(top.get("companions"), "companions") : List.of();
        Set<String> known = ServerFile.known(ports, settings.stream().map(WorkloadSetting::name).toList(), companions);

        Node commandNode = yaml.required(top, "command", root, "see docs/servers.md");
        List<String> command = command(commandNode);
        for (String word : command) {
            checkPlaceholders(commandNode, "command", word, known);
        }
        Map<String, String> env = top.containsKey("env") ? env(top.get("env"), known) : Map.of();
        ServerFile.Home home = top.containsKey("home") ? home(top.get("home")) : null;
        List<String> files = top.containsKey("files") ? files(top.get("files"), home) : List.of();
        Map<String, String> templates = top.containsKey("templates") ? templates(top.get("templates"), home, files)
                : Map.of();
        String url = null;
        if (top.containsKey("url")) {
            url = yaml.matching(top.get("url"), "url", "https?://\\S+", "an http:// URL");
            checkPlaceholders(top.get("url"), "url", url, known);
        }
        ServerFile.Ready ready = ready(yaml.required(top, "ready", root, "see docs/servers.md"), ports, known);
        ServerFile.Stop stop = top.containsKey("stop") ? stop(top.get("stop"), known)
                : new ServerFile.Stop("TERM", List.of(), DEFAULT_GRACE);
        ServerFile.Jvm jvm = top.containsKey("jvm") ? jvm(top.get("jvm"), home) : usesJvm(command, env)
                ? new ServerFile.Jvm(ServerFile.Jvm.Mode.PLACEHOLDER, null) : new ServerFile.Jvm(ServerFile.Jvm.Mode.NONE, null);
        if (jvm.mode() == ServerFile.Jvm.Mode.PLACEHOLDER && !usesJvm(command, env)) {
            throw yaml.fail(top.get("jvm"), "jvm", "placeholder: put {jvm} in the command or in an env: value");
        }
        return new ServerFile(name, file, text, workload, description, command, home, env, files, templates, ports, url, ready,
                stop, jvm, settings, companions);
    }

    private static boolean usesJvm(List<String> command, Map<String, String> env) {
        return command.stream().anyMatch(w -> ServerFile.placeholders(w).contains("jvm"))
                || env.values().stream().anyMatch(v -> ServerFile.placeholders(v).contains("jvm"));
    }

    private List<String> command(Node node) {
        List<String> words;
        if (node instanceof ScalarNode s) {
            words = ShellWords.split(s.getValue(), message -> yaml.fail(node, "command", message));
        } else {
            words = yaml.strings(node, "command");
        }
        if (words.isEmpty() || words.get(0).isBlank()) {
            throw yaml.fail(node, "command", "give the program and its arguments, e.g. [\"{home}/bin/catalina.sh\", run]");
        }
        return words;
    }

    private Map<String, String> env(Node node, Set<String> known) {
        Map<String, String> env = new LinkedHashMap<>();
        for (Map.Entry<String, Node> e : yaml.mapping(node, "env").entrySet()) {
            if (!e.getKey().matches("[A-Za-z_][A-Za-z0-9_]*")) {
                throw yaml.fail(e.getValue(), "env", "'" + e.getKey() + "' is not an environment variable's name");
            }
            String value = yaml.scalar(e.getValue(), "env." + e.getKey());
            checkPlaceholders(e.getValue(), "env." + e.getKey(), value, known);
            env.put(e.getKey(), value);
        }
        return env;
    }

    private ServerFile.Home home(Node node) {
        if (node instanceof ScalarNode s) {
            if (s.getValue().isBlank()) {
                throw yaml.fail(node, "home", "give a directory, or maven: GROUP:ARTIFACT:VERSION[:TYPE]");
            }
            return new ServerFile.Home(s.getValue(), null);
        }
        Map<String, Node> m = yaml.mapping(node, "home");
        if (m.size() != 1 || !m.containsKey("maven")) {
            throw yaml.fail(node, "home", "a directory, or maven: GROUP:ARTIFACT:VERSION[:TYPE] (e.g. maven: "
                    + "org.apache.tomcat:tomcat:11.0.24:zip)");
        }
        return new ServerFile.Home(null, yaml.matching(m.get("maven"), "home.maven",
                "[A-Za-z0-9_.-]+:[A-Za-z0-9_.-]+:[A-Za-z0-9_.+-]+(:[a-z0-9.]+)?", "GROUP:ARTIFACT:VERSION[:TYPE]"));
    }

    private List<String> files(Node node, ServerFile.Home home) {
        if (home == null) {
            throw yaml.fail(node, "files", "files are copied from the home: give home: too");
        }
        List<String> files = new ArrayList<>();
        for (String f : yaml.strings(node, "files")) {
            files.add(insideHome(node, "files", f));
        }
        if (files.stream().distinct().count() != files.size()) {
            throw yaml.fail(node, "files", "a file is given twice");
        }
        return files;
    }

    /**
     * A path inside the home as the run uses it, normalized ({@code ./conf/x} is {@code conf/x}), so that the same
     * file is the same path everywhere; IllegalArgumentException when it is absolute or leaves the home.
     */
    private String insideHome(Node node, String key, String given) {
        Path p = Path.of(given).normalize();
        if (given.isBlank() || p.isAbsolute() || p.startsWith("..") || p.toString().isEmpty()) {
            throw yaml.fail(node, key, "'" + given + "' is not a path inside the home (relative, without ..)");
        }
        return p.toString();
    }

    /**
     * {@code templates:}, path in the home: template file (relative to the server file, or absolute), each template
     * there and within the size of a page; what they hold is checked when a run fills them in.
     */
    private Map<String, String> templates(Node node, ServerFile.Home home, List<String> files) {
        if (home == null) {
            throw yaml.fail(node, "templates", "templates are written into the run's copy of the home: give home: too");
        }
        Map<String, String> templates = new LinkedHashMap<>();
        for (Map.Entry<String, Node> e : yaml.mapping(node, "templates").entrySet()) {
            String where = "templates." + e.getKey();
            String inHome = insideHome(e.getValue(), "templates", e.getKey());
            if (files.contains(inHome) || templates.containsKey(inHome)) {
                throw yaml.fail(e.getValue(), where, "this file is given twice (in files: or templates:); give it once");
            }
            Path template = besideFile(yaml.scalar(e.getValue(), where));
            try {
                if (!Files.isRegularFile(template) || Files.size(template) > MAX_BYTES) {
                    throw yaml.fail(e.getValue(), where, "no template file " + template + " (or over " + MAX_BYTES / 1024 + " KB)");
                }
            } catch (IOException x) {
                throw yaml.fail(e.getValue(), where, "cannot read " + template + ": " + x.getMessage());
            }
            templates.put(inHome, template.toString());
        }
        return templates;
    }

    /** A path the file gives, relative to the file's own directory as its reader sees it. */
    private Path besideFile(String given) {
        Path p = Path.of(given);
        Path dir = Path.of(file).toAbsolutePath().getParent();
        return (p.isAbsolute() || dir == null ? p : dir.resolve(p)).normalize();
    }

    private ServerFile.Ready ready(Node node, List<String> ports, Set<String> known) {
        Map<String, Node> m = yaml.mapping(node, "ready");
        List<String> kinds = new ArrayList<>(List.of("http", "line", "tcp"));
        kinds.retainAll(m.keySet());
        if (kinds.size() != 1) {
            throw yaml.fail(node, "ready", "give one of http (a URL), line (a regular expression) or tcp (a port's name)");
        }
        for (Map.Entry<String, Node> e : m.entrySet()) {
            if (!List.of("http", "line", "tcp", "status", "timeout").contains(e.getKey())) {
                throw yaml.fail(e.getValue(), "ready." + e.getKey(), "unknown key; ready: has http, line or tcp, status, timeout");
            }
        }
        String kind = kinds.get(0);
        Duration timeout = m.containsKey("timeout") ? yaml.duration(m.get("timeout"), "ready.timeout", Duration.ofSeconds(1),
                Duration.ofHours(1)) : DEFAULT_READY_TIMEOUT;
        int min = 200;
        int max = 399;
        if (m.containsKey("status")) {
            if (!kind.equals("http")) {
                throw yaml.fail(m.get("status"), "ready.status", "only an http check has a status");
            }
            String status = yaml.matching(m.get("status"), "ready.status", "[1-5]\\d\\d(-[1-5]\\d\\d)?", "a status or a range (200-399)");
            min = Integer.parseInt(status.substring(0, 3));
            max = status.length() > 3 ? Integer.parseInt(status.substring(4)) : min;
            if (max < min) {
                throw yaml.fail(m.get("status"), "ready.status", "the range " + status + " is empty");
            }
        }
        Node target = m.get(kind);
        String value = yaml.scalar(target, "ready." + kind);
        switch (kind) {
            case "http" -> {
                if (!value.matches("http://\\S+")) {
                    throw yaml.fail(target, "ready.http", "'" + value + "' is not an http:// URL");
                }
                checkPlaceholders(target, "ready.http", value, known);
                return new ServerFile.Ready(ServerFile.Ready.Kind.HTTP, value, min, max, timeout);
            }
            case "line" -> {
                try {
                    java.util.regex.Pattern.compile(value);
                } catch (java.util.regex.PatternSyntaxException e) {
                    throw yaml.fail(target, "ready.line", "not a regular expression: " + e.getDescription());
                }
                return new ServerFile.Ready(ServerFile.Ready.Kind.LINE, value, min, max, timeout);
            }
            default -> {
                if (!ports.contains(value)) {
                    throw yaml.fail(target, "ready.tcp", "'" + value + "' is not one of the ports: " + String.join(", ", ports));
                }
                return new ServerFile.Ready(ServerFile.Ready.Kind.TCP, value, min, max, timeout);
            }
        }
    }

    private ServerFile.Stop stop(Node node, Set<String> known) {
        Map<String, Node> m = yaml.mapping(node, "stop");
        for (Map.Entry<String, Node> e : m.entrySet()) {
            if (!List.of("signal", "command", "grace").contains(e.getKey())) {
                throw yaml.fail(e.getValue(), "stop." + e.getKey(), "unknown key; stop: has signal or command, and grace");
            }
        }
        if (m.containsKey("signal") && m.containsKey("command")) {
            throw yaml.fail(node, "stop", "give a signal or a command, not both");
        }
        Duration grace = m.containsKey("grace") ? yaml.duration(m.get("grace"), "stop.grace", Duration.ZERO, Duration.ofMinutes(10))
                : DEFAULT_GRACE;
        if (m.containsKey("command")) {
            List<String> command = command(m.get("command"));
            for (String word : command) {
                checkPlaceholders(m.get("command"), "stop.command", word, known);
            }
            return new ServerFile.Stop(null, command, grace);
        }
        String signal = m.containsKey("signal") ? yaml.scalar(m.get("signal"), "stop.signal").toUpperCase(java.util.Locale.ROOT)
                .replaceFirst("^SIG", "") : "TERM";
        if (!ServerFile.Stop.SIGNALS.contains(signal)) {
            throw yaml.fail(m.get("signal"), "stop.signal", "'" + signal + "' is not one of " + String.join(", ", ServerFile.Stop.SIGNALS));
        }
        return new ServerFile.Stop(signal, List.of(), grace);
    }

    private ServerFile.Jvm jvm(Node node, ServerFile.Home home) {
        if (node instanceof ScalarNode s) {
            return switch (s.getValue()) {
                case "none" -> new ServerFile.Jvm(ServerFile.Jvm.Mode.NONE, null);
                case "placeholder" -> new ServerFile.Jvm(ServerFile.Jvm.Mode.PLACEHOLDER, null);
                default -> throw yaml.fail(node, "jvm", "'" + s.getValue() + "' is not none or placeholder; or give env: NAME or file: PATH");
            };
        }
        Map<String, Node> m = yaml.mapping(node, "jvm");
        if (m.size() != 1 || !(m.containsKey("env") || m.containsKey("file"))) {
            throw yaml.fail(node, "jvm", "give one of none, placeholder, env: NAME or file: PATH");
        }
        if (m.containsKey("env")) {
            return new ServerFile.Jvm(ServerFile.Jvm.Mode.ENV, yaml.matching(m.get("env"), "jvm.env", "[A-Za-z_][A-Za-z0-9_]*",
                    "an environment variable's name"));
        }
        if (home == null) {
            throw yaml.fail(node, "jvm.file", "the file is in the run's copy of the home: give home: too");
        }
        return new ServerFile.Jvm(ServerFile.Jvm.Mode.FILE, insideHome(m.get("file"), "jvm.file",
                yaml.scalar(m.get("file"), "jvm.file")));
    }

    private List<WorkloadSetting> settings(Node node) {
        List<WorkloadSetting> settings = new ArrayList<>();
        for (Map.Entry<String, Node> e : yaml.mapping(node, "settings").entrySet()) {
            String name = e.getKey();
            String where = "settings." + name;
            if (!name.matches("[a-z][a-z0-9-]*")) {
                throw yaml.fail(e.getValue(), where, "a setting's name is lower-case words joined by - (max-threads), as a flag's");
            }
            Map<String, Node> m = yaml.mapping(e.getValue(), where);
            for (Map.Entry<String, Node> k : m.entrySet()) {
                if (!List.of("type", "default", "help", "min", "max", "values").contains(k.getKey())) {
                    throw yaml.fail(k.getValue(), where + "." + k.getKey(), "unknown key; a setting has type, default, help, "
                            + "min, max, values");
                }
            }
            String type = m.containsKey("type") ? yaml.scalar(m.get("type"), where + ".type") : "text";
            String help = m.containsKey("help") ? yaml.scalar(m.get("help"), where + ".help") : "";
            String dflt = m.containsKey("default") ? yaml.scalar(m.get("default"), where + ".default") : null;
            if (!type.equals("integer") && (m.containsKey("min") || m.containsKey("max"))) {
                throw yaml.fail(m.getOrDefault("min", m.get("max")), where, "only an integer has min and max");
            }
            if (!type.equals("choice") && m.containsKey("values")) {
                throw yaml.fail(m.get("values"), where + ".values", "only a choice has values");
            }
            WorkloadSetting setting = switch (type) {
                case "integer" -> WorkloadSetting.integer(name, null, (int) whole(m, "min", where, Integer.MIN_VALUE),
                        (int) whole(m, "max", where, Integer.MAX_VALUE), help);
                case "size" -> WorkloadSetting.size(name, null, 0, Long.MAX_VALUE, help);
                case "duration" -> WorkloadSetting.duration(name, null, Duration.ZERO, Duration.ofDays(1), help);
                case "choice" -> {
                    if (!m.containsKey("values")) {
                        throw yaml.fail(e.getValue(), where, "a choice lists its values: values: [a, b]");
                    }
                    yield WorkloadSetting.choice(name, null, help, yaml.strings(m.get("values"), where + ".values")
                            .stream().map(v -> v.toLowerCase(java.util.Locale.ROOT)).toArray(String[]::new));
                }
                case "text" -> WorkloadSetting.text(name, "TEXT", null, "[^\\n]*", help);
                default -> throw yaml.fail(m.get("type"), where + ".type", "'" + type + "' is not integer, size, duration, "
                        + "choice or text");
            };
            if (dflt != null) {
                try {
                    dflt = setting.normalize(dflt);
                } catch (IllegalArgumentException bad) {
                    throw yaml.fail(m.get("default"), where + ".default", bad.getMessage());
                }
            }
            // the server's side reads it, and perflab tune takes a comma list of its values as a dimension
            settings.add(new WorkloadSetting(name, setting.valueLabel(), dflt, help, WorkloadSetting.Use.SERVER,
                    true, setting.check()));
        }
        return settings;
    }

    private long whole(Map<String, Node> m, String key, String where, long otherwise) {
        if (!m.containsKey(key)) {
            return otherwise;
        }
        String v = yaml.matching(m.get(key), where + "." + key, "-?\\d{1,9}", "a whole number");
        return Long.parseLong(v);
    }

    private void checkPlaceholders(Node node, String key, String value, Set<String> known) {
        for (String p : ServerFile.placeholders(value)) {
            if (!known.contains(p)) {
                throw yaml.fail(node, key, "unknown placeholder {" + p + "}; this file has {" + String.join("}, {", known) + "}");
            }
        }
    }

    private List<String> names(Node node, String key) {
        List<String> names = yaml.strings(node, key);
        for (String n : names) {
            if (!n.matches(NAME)) {
                throw yaml.fail(node, key, "'" + n + "' is not a name of letters, digits, - and _");
            }
        }
        if (names.stream().distinct().count() != names.size()) {
            throw yaml.fail(node, key, "a name is given twice");
        }
        return names;
    }

    /** Port names are lower-case: perflab names a process's ports so ({@code {sut.port}}) in run.json and in commands. */
    private List<String> portNames(Node node) {
        List<String> names = names(node, "ports");
        for (String n : names) {
            if (!n.matches("[a-z][a-z0-9-]*")) {
                throw yaml.fail(node, "ports", "'" + n + "' is not a lower-case name of letters, digits and -");
            }
        }
        return names;
    }
}
