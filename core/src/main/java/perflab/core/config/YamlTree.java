package perflab.core.config;

import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

import java.io.StringReader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A file a user writes (a server file, a scenario file) read as YAML's node tree rather than bound to classes, so
 * that every mistake names where it is: one IllegalArgumentException of one line, {@code FILE:LINE: KEY: what is
 * wrong} (or {@code FILE:LINE:COLUMN: ...}). Aliases are refused, so that a hostile file cannot blow up into a
 * billion nodes, and the text is bounded.
 */
public final class YamlTree {
    private final String file;
    private final boolean columns;

    /**
     * @param file    the file as its reader named it, the start of every message
     * @param columns whether messages give the column after the line
     */
    public YamlTree(String file, boolean columns) {
        this.file = file;
        this.columns = columns;
    }

    public String file() {
        return file;
    }

    /** The root node of {@code text}, or null when the text holds no YAML document. */
    public Node compose(String text, int maxChars) {
        try {
            LoaderOptions options = new LoaderOptions();
            options.setMaxAliasesForCollections(0);
            options.setAllowRecursiveKeys(false);
            options.setCodePointLimit(maxChars);
            return new Yaml(options).compose(new StringReader(text));
        } catch (MarkedYAMLException e) {
            String where = e.getProblemMark() == null ? "" : ":" + (e.getProblemMark().getLine() + 1)
                    + (columns ? ":" + (e.getProblemMark().getColumn() + 1) : "");
            throw new IllegalArgumentException(file + where + ": not YAML: " + e.getProblem());
        } catch (YAMLException e) {
            throw new IllegalArgumentException(file + ": not YAML: " + e.getMessage().lines().findFirst().orElse(""));
        }
    }

    /** A mapping's entries by key, in order; a key given twice is refused (YAML would keep one silently). */
    public Map<String, Node> mapping(Node node, String key) {
        if (!(node instanceof MappingNode m)) {
            throw fail(node, key, "expected keys and values here");
        }
        Map<String, Node> entries = new LinkedHashMap<>();
        for (NodeTuple t : m.getValue()) {
            if (!(t.getKeyNode() instanceof ScalarNode k)) {
                throw fail(t.getKeyNode(), key, "a key must be a plain word");
            }
            if (entries.put(k.getValue(), t.getValueNode()) != null) {
                throw fail(k, key.equals("the file") ? k.getValue() : key + "." + k.getValue(), "given twice");
            }
        }
        return entries;
    }

    /** {@link #mapping} with every key one of {@code known}; {@code what} names the place in the refusal. */
    public Map<String, Node> mapping(Node node, String key, Collection<String> known, String what) {
        Map<String, Node> m = mapping(node, key);
        for (Map.Entry<String, Node> e : m.entrySet()) {
            if (!known.contains(e.getKey())) {
                throw fail(e.getValue(), key.equals("the file") ? e.getKey() : key + "." + e.getKey(),
                        "unknown key; " + what + " has " + String.join(", ", known));
            }
        }
        return m;
    }

    public String scalar(Node node, String key) {
        if (!(node instanceof ScalarNode s)) {
            throw fail(node, key, "expected one value here");
        }
        return s.getValue();
    }

    public String matching(Node node, String key, String pattern, String what) {
        String v = scalar(node, key);
        if (!v.matches(pattern)) {
            throw fail(node, key, "'" + v + "' is not " + what);
        }
        return v;
    }

    /** A list of single values. */
    public List<String> strings(Node node, String key) {
        List<String> values = new ArrayList<>();
        for (Node item : sequence(node, key)) {
            values.add(scalar(item, key));
        }
        return values;
    }

    public List<Node> sequence(Node node, String key) {
        if (!(node instanceof SequenceNode s)) {
            throw fail(node, key, "expected a list here ([a, b])");
        }
        return s.getValue();
    }

    public Duration duration(Node node, String key, Duration min, Duration max) {
        String text = scalar(node, key);
        Duration d;
        try {
            d = Quantities.duration(key, text);
        } catch (IllegalArgumentException e) {
            throw fail(node, key, "'" + text + "' is not a duration (e.g. 30s, 2m)");
        }
        if (d.compareTo(min) < 0 || d.compareTo(max) > 0) {
            throw fail(node, key, "must be within " + seconds(min) + ".." + seconds(max) + ", got " + text);
        }
        return d;
    }

    private static String seconds(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
    }

    /** A whole number within [min, max]. */
    public long whole(Node node, String key, long min, long max) {
        String v = matching(node, key, "-?\\d{1,18}", "a whole number");
        long n = Long.parseLong(v);
        if (n < min || n > max) {
            throw fail(node, key, "must be within " + min + ".." + max + ", got " + v);
        }
        return n;
    }

    /** A number (weights, probabilities): finite. */
    public double number(Node node, String key) {
        String v = scalar(node, key);
        try {
            double d = Double.parseDouble(v);
            if (Double.isFinite(d)) {
                return d;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw fail(node, key, "'" + v + "' is not a number");
    }

    public boolean bool(Node node, String key) {
        String v = scalar(node, key);
        return switch (v) {
            case "true", "yes", "on" -> true;
            case "false", "no", "off" -> false;
            default -> throw fail(node, key, "'" + v + "' is not true or false");
        };
    }

    public Node required(Map<String, Node> m, String key, Node parent, String hint) {
        Node n = m.get(key);
        if (n == null) {
            throw fail(parent, key, "missing" + (hint.isEmpty() ? "" : "; " + hint));
        }
        return n;
    }

    /** A refusal naming the file, the node's line (and column) and the key. */
    public IllegalArgumentException fail(Node node, String key, String message) {
        return new IllegalArgumentException(file + ":" + (node.getStartMark().getLine() + 1)
                + (columns ? ":" + (node.getStartMark().getColumn() + 1) : "") + ": " + key + ": " + message);
    }
}
