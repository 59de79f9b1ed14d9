package perflab.scenario;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;
import perflab.core.config.YamlTree;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Reads a scenario file (docs/scenarios.md) into a {@link Scenario}: every key known, every value checked, every
 * variable one the file defines. A mistake is one IllegalArgumentException naming the file, the line, the column
 * and the key ({@code shop.yaml:12:9: mix[1].steps[0].get: undefined variable ${item}; ...}), before anything runs.
 */
final class ScenarioReader {
    private static final List<String> KEYS = List.of("scenario", "description", "variables", "defaults", "once", "steps",
            "mix", "end", "iterations");
    private static final List<String> METHODS = List.of("get", "post", "put", "delete", "patch", "head", "options");
    private static final List<String> STEP_KEYS = List.of("name", "get", "post", "put", "delete", "patch", "head",
            "options", "headers", "body", "bodyFile", "form", "json", "contentType", "check", "deepCheck", "extract",
            "think", "ifPresent", "ifAbsent", "consume", "set", "resend");
    private static final List<String> CHECK_KINDS = List.of("status", "contains", "notContains", "regex", "notRegex",
            "json", "xpath", "header");
    private static final List<String> EXTRACT_KINDS = List.of("regex", "css", "json", "xpath", "header");
    /** A scenario file is a page or a few of YAML; its data lives in CSV files beside it. */
    static final int MAX_CHARS = 1024 * 1024;
    private static final long MAX_DATA_BYTES = 64L * 1024 * 1024;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final YamlTree yaml;
    private final Path dir;
    private final Set<String> known = new HashSet<>(Scenario.BUILT_IN);
    /** The files read, the scenario file first (absolute): what agents elsewhere are sent. */
    private final Set<Path> read = new java.util.LinkedHashSet<>();
    /** The variables steps extract or set: the ones ifAbsent, consume and set may name. */
    private final Set<String> sessionOwn = new HashSet<>();
    /** Declared variables (and data files): not for a step to set. */
    private final Set<String> declared = new HashSet<>();

    private ScenarioReader(String shown, Path dir) {
        this.yaml = new YamlTree(shown, true);
        this.dir = dir;
    }

    static Scenario read(Path file, String shown) throws IOException {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        Path dir = file.toAbsolutePath().getParent();
        ScenarioReader reader = new ScenarioReader(shown, dir);
        reader.read.add(file.toAbsolutePath().normalize());
        return reader.parse(text, shown);
    }

    /** Reads {@code text} as the file {@code shown}, its data files found in {@code dir} (tests). */
    static Scenario fromText(String shown, String text, Path dir) {
        return new ScenarioReader(shown, dir).parse(text, shown);
    }

    private Scenario parse(String text, String shown) {
        Node root = yaml.compose(text, MAX_CHARS);
        if (root == null) {
            throw new IllegalArgumentException(shown + ": empty; a scenario file begins with scenario: NAME");
        }
        Map<String, Node> top = yaml.mapping(root, "the file", KEYS, "a scenario file");
        String name = yaml.matching(yaml.required(top, "scenario", root, "a scenario file begins with scenario: NAME"),
                "scenario", "[A-Za-z0-9][A-Za-z0-9_.-]*", "a name of letters, digits, ., - and _");
        String description = top.containsKey("description") ? yaml.scalar(top.get("description"), "description") : "";
        Map<String, Scenario.Variable> variables = new LinkedHashMap<>();
        Map<String, Scenario.DataFile> data = new LinkedHashMap<>();
        if (top.containsKey("variables")) {
            variables(top.get("variables"), variables, data);
        }
        if (top.containsKey("steps") == top.containsKey("mix")) {
            throw yaml.fail(root, top.containsKey("steps") ? "mix" : "steps", top.containsKey("steps")
                    ? "give steps: (one list repeated) or mix: (weighted transactions), not both"
                    : "missing; give steps: (a list of requests) or mix: (weighted transactions)");
        }
        // every variable the steps extract is known before any step is read: a step may use one a later step takes
        for (String list : List.of("once", "steps", "end")) {
            if (top.containsKey(list)) {
                for (Node step : yaml.sequence(top.get(list), list)) {
                    collectExtracted(step);
                }
            }
        }
        if (top.containsKey("mix")) {
            for (Node t : yaml.sequence(top.get("mix"), "mix")) {
                if (t instanceof MappingNode && yaml.mapping(t, "mix").get("steps") instanceof SequenceNode s) {
                    s.getValue().forEach(this::collectExtracted);
                }
            }
        }
        Defaults defaults = top.containsKey("defaults") ? defaults(top.get("defaults")) : Defaults.NONE;
        List<Step> once = top.containsKey("once") ? steps(top.get("once"), "once", defaults) : List.of();
        List<Scenario.Transaction> mix = new ArrayList<>();
        if (top.containsKey("steps")) {
            mix.add(new Scenario.Transaction(name, 1, steps(top.get("steps"), "steps", defaults), false));
        } else {
            List<Node> items = yaml.sequence(top.get("mix"), "mix");
            if (items.isEmpty()) {
                throw yaml.fail(top.get("mix"), "mix", "give at least one transaction");
            }
            for (int i = 0; i < items.size(); i++) {
                mix.add(transaction(items.get(i), "mix[" + i + "]", defaults));
            }
        }
        List<Step> end = top.containsKey("end") ? steps(top.get("end"), "end", defaults) : List.of();
        int iterations = top.containsKey("iterations") ? (int) yaml.whole(top.get("iterations"), "iterations", 1,
                Integer.MAX_VALUE) : 0;
        if (!end.isEmpty() && iterations == 0 && mix.stream().noneMatch(Scenario.Transaction::endsSession)) {
            throw yaml.fail(top.get("end"), "end", "a session ends after iterations: N or a transaction with "
                    + "endsSession: true; give one of them too");
        }
        return new Scenario(name, shown, description, variables, data, once, mix, end, iterations, List.copyOf(read));
    }

    /** The defaults every step takes unless it says otherwise. */
    private record Defaults(Map<String, Text> headers, Scenario.Think think, Check.Status status) {
        static final Defaults NONE = new Defaults(Map.of(), null, null);
    }

    private Defaults defaults(Node node) {
        Map<String, Node> m = yaml.mapping(node, "defaults", List.of("headers", "think", "status"), "defaults:");
        Map<String, Text> headers = m.containsKey("headers") ? headers(m.get("headers"), "defaults.headers") : Map.of();
        Scenario.Think think = m.containsKey("think") ? think(m.get("think"), "defaults.think") : null;
        Check.Status status = m.containsKey("status") ? status(m.get("status"), "defaults.status") : null;
        return new Defaults(headers, think, status);
    }

    private void variables(Node node, Map<String, Scenario.Variable> variables, Map<String, Scenario.DataFile> data) {
        for (Map.Entry<String, Node> e : yaml.mapping(node, "variables").entrySet()) {
            String name = e.getKey();
            String where = "variables." + name;
            if (!name.matches("[A-Za-z_][A-Za-z0-9_-]*")) {
                throw yaml.fail(e.getValue(), where, "'" + name + "' is not a variable's name (letters, digits, _ and -)");
            }
            if (Scenario.BUILT_IN.contains(name)) {
                throw yaml.fail(e.getValue(), where, "${" + name + "} is built in; give the variable another name");
            }
            Map<String, Node> m = yaml.mapping(e.getValue(), where, List.of("counter", "oneOf", "range", "value", "csv"),
                    "a variable");
            if (m.size() != 1) {
                throw yaml.fail(e.getValue(), where, "give one of counter, oneOf, range, value or csv");
            }
            String kind = m.keySet().iterator().next();
            Node v = m.get(kind);
            String at = where + "." + kind;
            switch (kind) {
                case "counter" -> variables.put(name, new Scenario.Counter(yaml.whole(v, at, Long.MIN_VALUE / 2, Long.MAX_VALUE / 2)));
                case "oneOf" -> {
                    List<String> values = yaml.strings(v, at);
                    if (values.isEmpty()) {
                        throw yaml.fail(v, at, "give at least one value");
                    }
                    variables.put(name, new Scenario.OneOf(values));
                }
                case "range" -> {
                    List<Node> bounds = yaml.sequence(v, at);
                    if (bounds.size() != 2) {
                        throw yaml.fail(v, at, "give [MIN, MAX]");
                    }
                    long min = yaml.whole(bounds.get(0), at, Long.MIN_VALUE / 2, Long.MAX_VALUE / 2);
                    long max = yaml.whole(bounds.get(1), at, Long.MIN_VALUE / 2, Long.MAX_VALUE / 2);
                    if (max < min) {
                        throw yaml.fail(v, at, "the range [" + min + ", " + max + "] is empty");
                    }
                    variables.put(name, new Scenario.Range(min, max));
                }
                case "value" -> variables.put(name, new Scenario.Constant(yaml.scalar(v, at)));
                default -> data.put(name, csv(v, at, name));
            }
            known.add(name);
            declared.add(name);
        }
    }

    private Scenario.DataFile csv(Node node, String where, String name) {
        String given = yaml.scalar(node, where);
        Path path = Path.of(given);
        Path file = (path.isAbsolute() || dir == null ? path : dir.resolve(path)).normalize();
        List<List<String>> records;
        try {
            if (!Files.isRegularFile(file)) {
                throw yaml.fail(node, where, "no such file " + file);
            }
            if (Files.size(file) > MAX_DATA_BYTES) {
                throw yaml.fail(node, where, file + " is over " + MAX_DATA_BYTES / 1024 / 1024 + " MB");
            }
            records = CsvRecords.parse(Files.readString(file, StandardCharsets.UTF_8));
            read.add(file.toAbsolutePath().normalize());
        } catch (IOException e) {
            throw yaml.fail(node, where, "cannot read " + file + ": " + e.getMessage());
        } catch (IllegalArgumentException e) {
            if (e.getMessage() != null && e.getMessage().startsWith(yaml.file())) {
                throw e;
            }
            throw yaml.fail(node, where, file.getFileName() + ": " + e.getMessage());
        }
        if (records.size() < 2) {
            throw yaml.fail(node, where, file.getFileName() + " needs a header row of column names and at least one row");
        }
        List<String> columns = records.get(0);
        for (String c : columns) {
            if (!c.matches("[A-Za-z0-9_-]+")) {
                throw yaml.fail(node, where, file.getFileName() + ": column '" + c + "' is not a name (letters, digits, _ and -)");
            }
            known.add(name + "." + c);
        }
        List<List<String>> rows = records.subList(1, records.size());
        for (int i = 0; i < rows.size(); i++) {
            if (rows.get(i).size() != columns.size()) {
                throw yaml.fail(node, where, file.getFileName() + ": row " + (i + 2) + " has " + rows.get(i).size()
                        + " values for " + columns.size() + " columns");
            }
        }
        return new Scenario.DataFile(name, file.toString(), columns, rows);
    }

    /** The names a step gives values to: what it extracts and what it sets (the session's own variables). */
    private void collectExtracted(Node step) {
        if (step instanceof MappingNode) {
            for (String key : List.of("extract", "set")) {
                Node n = yaml.mapping(step, "step").get(key);
                if (n instanceof MappingNode) {
                    Set<String> names = yaml.mapping(n, key).keySet();
                    known.addAll(names);
                    sessionOwn.addAll(names);
                }
            }
        }
    }

    private Scenario.Transaction transaction(Node node, String where, Defaults defaults) {
        Map<String, Node> m = yaml.mapping(node, where, List.of("name", "weight", "steps", "endsSession"), "a transaction");
        String name = yaml.matching(yaml.required(m, "name", node, "a transaction is named"), where + ".name",
                "[A-Za-z0-9][A-Za-z0-9_.-]*", "a name of letters, digits, ., - and _");
        double weight = m.containsKey("weight") ? yaml.number(m.get("weight"), where + ".weight") : 1;
        if (!(weight > 0)) {
            throw yaml.fail(m.get("weight"), where + ".weight", "a weight is a positive number");
        }
        List<Step> steps = steps(yaml.required(m, "steps", node, "a transaction has steps"), where + ".steps", defaults);
        if (steps.isEmpty()) {
            throw yaml.fail(m.get("steps"), where + ".steps", "give at least one step");
        }
        boolean endsSession = m.containsKey("endsSession") && yaml.bool(m.get("endsSession"), where + ".endsSession");
        return new Scenario.Transaction(name, weight, steps, endsSession);
    }

    private List<Step> steps(Node node, String where, Defaults defaults) {
        List<Node> items = yaml.sequence(node, where);
        List<Step> steps = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            steps.add(step(items.get(i), where + "[" + i + "]", defaults));
        }
        return steps;
    }

    private Step step(Node node, String where, Defaults defaults) {
        Map<String, Node> m = yaml.mapping(node, where, STEP_KEYS, "a step");
        List<String> methods = new ArrayList<>(METHODS);
        methods.retainAll(m.keySet());
        if (methods.size() != 1) {
            throw yaml.fail(node, where, "give one request: get, post, put, delete, patch, head or options, with its path");
        }
        String method = methods.get(0);
        Node pathNode = m.get(method);
        String pathWritten = yaml.scalar(pathNode, where + "." + method);
        Text path = text(pathNode, where + "." + method, pathWritten);
        if (!pathWritten.startsWith("/") && !pathWritten.startsWith("${")) {
            throw yaml.fail(pathNode, where + "." + method, "'" + pathWritten + "' is not a path (/...); the server is "
                    + "the run's --target");
        }
        if (pathWritten.chars().anyMatch(c -> c == ' ' || c == '\t' || c == '\r' || c == '\n')) {
            throw yaml.fail(pathNode, where + "." + method, "a path has no white space (write %20)");
        }
        String kind = m.containsKey("name") ? yaml.scalar(m.get("name"), where + ".name")
                : method.toUpperCase(java.util.Locale.ROOT) + " " + path.render(v -> "{" + v + "}");
        if (kind.isBlank() || kind.length() > 120 || kind.chars().anyMatch(Character::isISOControl)) {
            throw yaml.fail(m.getOrDefault("name", pathNode), where + ".name", "a step's name is one short line");
        }
        Map<String, Text> headers = new LinkedHashMap<>(defaults.headers());
        if (m.containsKey("headers")) {
            headers.putAll(headers(m.get("headers"), where + ".headers"));
        }
        Step.Body body = body(m, node, where, headers);
        List<Check> checks = m.containsKey("check") ? checks(m.get("check"), where + ".check") : new ArrayList<>();
        if (checks.stream().noneMatch(c -> c instanceof Check.Status)) {
            checks.add(0, defaults.status() != null ? defaults.status() : DEFAULT_STATUS);
        }
        List<Check> deep = m.containsKey("deepCheck") ? checks(m.get("deepCheck"), where + ".deepCheck") : List.of();
        List<Extraction> extractions = m.containsKey("extract") ? extractions(m.get("extract"), where + ".extract") : List.of();
        Scenario.Think think = m.containsKey("think") ? think(m.get("think"), where + ".think") : defaults.think();
        List<String> ifPresent = m.containsKey("ifPresent") ? variableNames(m.get("ifPresent"), where + ".ifPresent", known) : List.of();
        List<String> ifAbsent = m.containsKey("ifAbsent") ? variableNames(m.get("ifAbsent"), where + ".ifAbsent", sessionOwn) : List.of();
        String consume = null;
        if (m.containsKey("consume")) {
            consume = variableNames(m.get("consume"), where + ".consume", sessionOwn).get(0);
            if (!usedBy(path, headers, body, consume)) {
                throw yaml.fail(m.get("consume"), where + ".consume", "the request does not use ${" + consume
                        + "}; consume takes the value it sends off the list");
            }
        }
        Map<String, Text> set = m.containsKey("set") ? sets(m.get("set"), where + ".set") : Map.of();
        boolean resend = !m.containsKey("resend") || yaml.bool(m.get("resend"), where + ".resend");
        return new Step(kind, method.toUpperCase(java.util.Locale.ROOT), path, headers, body, checks, deep, extractions,
                think, ifPresent, ifAbsent, consume, set, resend);
    }

    /** A variable's name or a list of them, {@code ${x}} or {@code x}, each one of {@code allowed}. */
    private List<String> variableNames(Node n, String where, Set<String> allowed) {
        List<String> names = n instanceof ScalarNode ? List.of(yaml.scalar(n, where)) : yaml.strings(n, where);
        if (names.isEmpty() || where.endsWith(".consume") && names.size() != 1) {
            throw yaml.fail(n, where, "give " + (where.endsWith(".consume") ? "one variable" : "a variable or a list of them"));
        }
        List<String> bare = names.stream().map(v -> v.startsWith("${") && v.endsWith("}") ? v.substring(2, v.length() - 1) : v).toList();
        for (String v : bare) {
            if (!allowed.contains(v)) {
                throw yaml.fail(n, where, (known.contains(v) ? "${" + v + "} is not a value a step extracts or sets"
                        : "undefined variable " + v) + "; " + (allowed == known ? knownList()
                        : "extracted or set: " + (allowed.isEmpty() ? "none" : "${" + String.join("}, ${", allowed.stream().sorted().toList()) + "}")));
            }
        }
        return bare;
    }

    private static boolean usedBy(Text path, Map<String, Text> headers, Step.Body body, String variable) {
        return path.variables().contains(variable) || headers.values().stream().anyMatch(t -> t.variables().contains(variable))
                || body != null && body.text().variables().contains(variable);
    }

    /** {@code set:}: names the steps' own variables, each a text (with variables) or null to forget its value. */
    private Map<String, Text> sets(Node node, String where) {
        Map<String, Text> set = new LinkedHashMap<>();
        for (Map.Entry<String, Node> e : yaml.mapping(node, where).entrySet()) {
            String at = where + "." + e.getKey();
            if (!e.getKey().matches("[A-Za-z_][A-Za-z0-9_-]*") || Scenario.BUILT_IN.contains(e.getKey())
                    || declared.contains(e.getKey())) {
                throw yaml.fail(e.getValue(), at, "'" + e.getKey() + "' cannot be set: a step sets a name of its own, not a "
                        + "declared or built-in variable");
            }
            boolean forget = e.getValue() instanceof ScalarNode sn && sn.getTag().equals(org.yaml.snakeyaml.nodes.Tag.NULL);
            set.put(e.getKey(), forget ? null : text(e.getValue(), at, yaml.scalar(e.getValue(), at)));
        }
        return set;
    }

    /** A response passes with a 2xx or a 3xx (redirects are not followed: a recorded redirect is a step of its own). */
    static final Check.Status DEFAULT_STATUS = new Check.Status(List.of(new int[] {200, 399}), "200-399");

    private Step.Body body(Map<String, Node> m, Node node, String where, Map<String, Text> headers) {
        List<String> kinds = new ArrayList<>(List.of("body", "bodyFile", "form", "json"));
        kinds.retainAll(m.keySet());
        if (kinds.size() > 1) {
            throw yaml.fail(node, where, "give one body: body, bodyFile, form or json, not " + String.join(" and ", kinds));
        }
        String contentType = m.containsKey("contentType") ? yaml.matching(m.get("contentType"), where + ".contentType",
                "[!#$%&'*+.^_`|~0-9A-Za-z-]+/[^\\r\\n]+", "a media type such as text/xml; charset=utf-8") : null;
        Text typeHeader = headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase("Content-Type"))
                .map(Map.Entry::getValue).findFirst().orElse(null);
        if (contentType != null && typeHeader != null) {
            throw yaml.fail(m.get("contentType"), where + ".contentType", "the headers give Content-Type already; give it once");
        }
        if (kinds.isEmpty()) {
            if (contentType != null) {
                throw yaml.fail(m.get("contentType"), where + ".contentType", "the step has no body");
            }
            return null;
        }
        String kind = kinds.get(0);
        Node b = m.get(kind);
        String at = where + "." + kind;
        String type = contentType != null ? contentType : typeHeader != null ? typeHeader.render(v -> "") : null;
        Text text;
        switch (kind) {
            case "form" -> {
                StringBuilder written = new StringBuilder();
                for (Map.Entry<String, Node> f : yaml.mapping(b, at).entrySet()) {
                    if (!written.isEmpty()) {
                        written.append('&');
                    }
                    written.append(new String(perflab.core.traffic.UrlEncoding.formValue(f.getKey()), StandardCharsets.US_ASCII)
                            .replace("$", "$$")).append('=');
                    Text value = text(f.getValue(), at + "." + f.getKey(), yaml.scalar(f.getValue(), at + "." + f.getKey()));
                    for (Object p : value.parts()) {
                        written.append(p instanceof Text.Var v ? "${" + v.name() + "}"
                                : new String(perflab.core.traffic.UrlEncoding.formValue((String) p), StandardCharsets.US_ASCII));
                    }
                }
                text = Text.parse(written.toString());
                return new Step.Body(text, Encoding.FORM, type != null ? type : "application/x-www-form-urlencoded");
            }
            case "json" -> {
                String json;
                try {
                    json = JSON.writeValueAsString(jsonOf(b, at));
                } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                    throw yaml.fail(b, at, "cannot be written as JSON: " + e.getOriginalMessage());
                }
                text = text(b, at, json);
                return new Step.Body(text, Encoding.JSON, type != null ? type : "application/json");
            }
            case "bodyFile" -> {
                String given = yaml.scalar(b, at);
                Path p = Path.of(given);
                Path file = (p.isAbsolute() || dir == null ? p : dir.resolve(p)).normalize();
                String content;
                try {
                    if (!Files.isRegularFile(file) || Files.size(file) > MAX_DATA_BYTES) {
                        throw yaml.fail(b, at, "no such file " + file + " (or over " + MAX_DATA_BYTES / 1024 / 1024 + " MB)");
                    }
                    content = Files.readString(file, StandardCharsets.UTF_8);
                    read.add(file.toAbsolutePath().normalize());
                } catch (IOException e) {
                    throw yaml.fail(b, at, "cannot read " + file + ": " + e.getMessage());
                }
                text = text(b, at, content);
            }
            default -> text = text(b, at, yaml.scalar(b, at));
        }
        String t = type == null ? "" : type.toLowerCase(java.util.Locale.ROOT);
        Encoding encoding = t.contains("json") ? Encoding.JSON : t.contains("xml") ? Encoding.XML
                : t.contains("x-www-form-urlencoded") ? Encoding.FORM : Encoding.RAW;
        return new Step.Body(text, encoding, type);
    }

    /** YAML's tree as JSON's: numbers, booleans and null as their tags say, the rest strings. */
    private JsonNode jsonOf(Node node, String where) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        if (node instanceof MappingNode) {
            ObjectNode o = f.objectNode();
            yaml.mapping(node, where).forEach((k, v) -> o.set(k, jsonOf(v, where + "." + k)));
            return o;
        }
        if (node instanceof SequenceNode s) {
            ArrayNode a = f.arrayNode();
            s.getValue().forEach(v -> a.add(jsonOf(v, where)));
            return a;
        }
        String v = yaml.scalar(node, where);
        Tag tag = node.getTag();
        try {
            if (Tag.INT.equals(tag)) {
                return f.numberNode(new java.math.BigInteger(v.replace("_", "")));
            }
            if (Tag.FLOAT.equals(tag)) {
                return f.numberNode(new java.math.BigDecimal(v.replace("_", "")));
            }
        } catch (NumberFormatException e) {
            return f.textNode(v);
        }
        if (Tag.BOOL.equals(tag)) {
            return f.booleanNode(Boolean.parseBoolean(v) || v.equalsIgnoreCase("yes") || v.equalsIgnoreCase("on"));
        }
        if (Tag.NULL.equals(tag)) {
            return f.nullNode();
        }
        return f.textNode(v);
    }

    private Map<String, Text> headers(Node node, String where) {
        Map<String, Text> headers = new LinkedHashMap<>();
        for (Map.Entry<String, Node> e : yaml.mapping(node, where).entrySet()) {
            String name = e.getKey();
            if (!name.matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+")) {
                throw yaml.fail(e.getValue(), where, "'" + name + "' is not a header's name");
            }
            if (List.of("host", "content-length", "connection", "transfer-encoding", "cookie").contains(name.toLowerCase(java.util.Locale.ROOT))) {
                throw yaml.fail(e.getValue(), where + "." + name, "the driver writes " + name + " itself"
                        + (name.equalsIgnoreCase("cookie") ? " from the session's cookies" : ""));
            }
            String value = yaml.scalar(e.getValue(), where + "." + name);
            if (value.indexOf('\r') >= 0 || value.indexOf('\n') >= 0) {
                throw yaml.fail(e.getValue(), where + "." + name, "a header's value is one line");
            }
            headers.put(name, text(e.getValue(), where + "." + name, value));
        }
        return headers;
    }

    private Scenario.Think think(Node node, String where) {
        Duration max = Duration.ofHours(1);
        if (node instanceof ScalarNode) {
            long n = yaml.duration(node, where, Duration.ZERO, max).toNanos();
            return new Scenario.Think(Scenario.Think.Kind.FIXED, n, n);
        }
        Map<String, Node> m = yaml.mapping(node, where, List.of("uniform", "exponential"), "a think time");
        if (m.size() != 1) {
            throw yaml.fail(node, where, "give a duration, uniform: [MIN, MAX] or exponential: MEAN");
        }
        if (m.containsKey("exponential")) {
            long mean = yaml.duration(m.get("exponential"), where + ".exponential", Duration.ofMillis(1), max).toNanos();
            return new Scenario.Think(Scenario.Think.Kind.EXPONENTIAL, mean, mean);
        }
        List<Node> bounds = yaml.sequence(m.get("uniform"), where + ".uniform");
        if (bounds.size() != 2) {
            throw yaml.fail(m.get("uniform"), where + ".uniform", "give [MIN, MAX]");
        }
        long min = yaml.duration(bounds.get(0), where + ".uniform", Duration.ZERO, max).toNanos();
        long hi = yaml.duration(bounds.get(1), where + ".uniform", Duration.ZERO, max).toNanos();
        if (hi < min) {
            throw yaml.fail(m.get("uniform"), where + ".uniform", "MAX is below MIN");
        }
        return new Scenario.Think(Scenario.Think.Kind.UNIFORM, min, hi);
    }

    private List<Check> checks(Node node, String where) {
        List<Check> checks = new ArrayList<>();
        List<Node> items = node instanceof SequenceNode s ? s.getValue() : List.of(node);
        for (int i = 0; i < items.size(); i++) {
            String at = node instanceof SequenceNode ? where + "[" + i + "]" : where;
            for (Map.Entry<String, Node> e : yaml.mapping(items.get(i), at, CHECK_KINDS, "a check").entrySet()) {
                checks.add(check(e.getKey(), e.getValue(), at + "." + e.getKey()));
            }
        }
        return checks;
    }

    private Check check(String kind, Node v, String at) {
        return switch (kind) {
            case "status" -> status(v, at);
            case "contains", "notContains" -> {
                String s = yaml.scalar(v, at);
                if (s.isEmpty()) {
                    throw yaml.fail(v, at, "give the text to look for");
                }
                yield Check.Contains.of(text(v, at, s), kind.equals("notContains"));
            }
            case "regex", "notRegex" -> new Check.Matches(pattern(v, at), kind.equals("notRegex"));
            case "json" -> {
                Map<String, Node> m = yaml.mapping(v, at, List.of("pointer", "equals"), "a json check");
                Node p = yaml.required(m, "pointer", v, "a JSON pointer such as /user/name");
                yield new Check.JsonValue(pointer(p, at + ".pointer"), m.containsKey("equals")
                        ? text(m.get("equals"), at + ".equals", yaml.scalar(m.get("equals"), at + ".equals")) : null);
            }
            case "xpath" -> {
                Map<String, Node> m = yaml.mapping(v, at, List.of("expr", "equals"), "an xpath check");
                Node e = yaml.required(m, "expr", v, "an XPath expression");
                yield new Check.XPathValue(xpath(e, at + ".expr"), m.containsKey("equals")
                        ? text(m.get("equals"), at + ".equals", yaml.scalar(m.get("equals"), at + ".equals")) : null);
            }
            default -> {
                Map<String, Node> m = yaml.mapping(v, at, List.of("name", "equals", "contains"), "a header check");
                String name = yaml.matching(yaml.required(m, "name", v, "the header's name"), at + ".name",
                        "[!#$%&'*+.^_`|~0-9A-Za-z-]+", "a header's name");
                yield new Check.Header(name, m.containsKey("equals") ? text(m.get("equals"), at + ".equals",
                        yaml.scalar(m.get("equals"), at + ".equals")) : null, m.containsKey("contains")
                        ? text(m.get("contains"), at + ".contains", yaml.scalar(m.get("contains"), at + ".contains")) : null);
            }
        };
    }

    private Check.Status status(Node node, String where) {
        List<String> written = node instanceof SequenceNode ? yaml.strings(node, where) : List.of(yaml.scalar(node, where));
        List<int[]> ranges = new ArrayList<>();
        for (String s : written) {
            if (!s.matches("[1-5]\\d\\d(-[1-5]\\d\\d)?")) {
                throw yaml.fail(node, where, "'" + s + "' is not a status or a range (200, 200-399)");
            }
            int min = Integer.parseInt(s.substring(0, 3));
            int max = s.length() > 3 ? Integer.parseInt(s.substring(4)) : min;
            if (max < min) {
                throw yaml.fail(node, where, "the range " + s + " is empty");
            }
            ranges.add(new int[] {min, max});
        }
        if (ranges.isEmpty()) {
            throw yaml.fail(node, where, "give a status or a range");
        }
        return new Check.Status(ranges, String.join(" or ", written));
    }

    private List<Extraction> extractions(Node node, String where) {
        List<Extraction> list = new ArrayList<>();
        for (Map.Entry<String, Node> e : yaml.mapping(node, where).entrySet()) {
            String var = e.getKey();
            String at = where + "." + var;
            if (!var.matches("[A-Za-z_][A-Za-z0-9_-]*")) {
                throw yaml.fail(e.getValue(), at, "'" + var + "' is not a variable's name (letters, digits, _ and -)");
            }
            if (Scenario.BUILT_IN.contains(var)) {
                throw yaml.fail(e.getValue(), at, "${" + var + "} is built in; extract into another name");
            }
            List<String> keys = new ArrayList<>(EXTRACT_KINDS);
            keys.addAll(List.of("attr", "all", "optional"));
            Map<String, Node> m = yaml.mapping(e.getValue(), at, keys, "an extraction");
            List<String> kinds = new ArrayList<>(EXTRACT_KINDS);
            kinds.retainAll(m.keySet());
            if (kinds.size() != 1) {
                throw yaml.fail(e.getValue(), at, "give one of regex, css, json, xpath or header");
            }
            String kind = kinds.get(0);
            Node x = m.get(kind);
            String expr = yaml.scalar(x, at + "." + kind);
            if (m.containsKey("attr") && !kind.equals("css")) {
                throw yaml.fail(m.get("attr"), at + ".attr", "only a css extraction takes an attribute");
            }
            String attr = m.containsKey("attr") ? yaml.scalar(m.get("attr"), at + ".attr") : null;
            boolean all = m.containsKey("all") && yaml.bool(m.get("all"), at + ".all");
            boolean optional = m.containsKey("optional") && yaml.bool(m.get("optional"), at + ".optional");
            Object compiled = switch (kind) {
                case "regex" -> pattern(x, at + ".regex");
                case "css" -> {
                    try {
                        yield org.jsoup.select.QueryParser.parse(expr);
                    } catch (IllegalArgumentException | IllegalStateException bad) {
                        throw yaml.fail(x, at + ".css", "not a CSS selector: " + bad.getMessage());
                    }
                }
                case "json" -> pointer(x, at + ".json");
                case "xpath" -> xpath(x, at + ".xpath");
                default -> {
                    if (!expr.matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+")) {
                        throw yaml.fail(x, at + ".header", "'" + expr + "' is not a header's name");
                    }
                    yield expr;
                }
            };
            list.add(new Extraction(var, Extraction.Kind.valueOf(kind.toUpperCase(java.util.Locale.ROOT)), expr, attr,
                    all, optional, compiled));
        }
        return list;
    }

    private Pattern pattern(Node node, String where) {
        String s = yaml.scalar(node, where);
        try {
            return Pattern.compile(s);
        } catch (PatternSyntaxException e) {
            throw yaml.fail(node, where, "not a regular expression: " + e.getDescription());
        }
    }

    private JsonPointer pointer(Node node, String where) {
        String s = yaml.scalar(node, where);
        try {
            return JsonPointer.compile(s);
        } catch (IllegalArgumentException e) {
            throw yaml.fail(node, where, "'" + s + "' is not a JSON pointer (/a/0/b)");
        }
    }

    private String xpath(Node node, String where) {
        String s = yaml.scalar(node, where);
        String problem = XPaths.problem(s);
        if (problem != null) {
            throw yaml.fail(node, where, "not an XPath expression: " + problem);
        }
        return s;
    }

    /** A text with variables, each one the file defines. */
    private Text text(Node node, String where, String written) {
        Text t;
        try {
            t = Text.parse(written);
        } catch (IllegalArgumentException e) {
            throw yaml.fail(node, where, e.getMessage());
        }
        for (String v : t.variables()) {
            if (!known.contains(v)) {
                throw yaml.fail(node, where, "undefined variable ${" + v + "}; " + knownList());
            }
        }
        return t;
    }

    private String knownList() {
        return "defined: ${" + String.join("}, ${", known.stream().sorted().toList()) + "}";
    }
}
