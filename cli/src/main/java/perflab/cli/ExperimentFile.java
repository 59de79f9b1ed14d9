package perflab.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import perflab.core.config.ExperimentSpec;
import perflab.core.config.Quantities;
import perflab.core.result.AtomicFiles;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The experiment file (YAML; docs/experiments.md): read into an {@link ExperimentSpec}, checked key by key with
 * one-line errors that name the accepted keys, and written back (the experiment's own experiment.yaml, as run).
 */
final class ExperimentFile {
    static final Set<String> KEYS = Set.of("name", "description", "workload", "repeat", "matrix", "steps", "rate-sweep",
            "rate-search", "objective", "alpha", "min-effect");
    static final List<String> PERCENTILES = List.of("p50", "p90", "p95", "p99", "p999");
    static final int DEFAULT_REPEAT = 3;
    private static final YAMLMapper YAML = new YAMLMapper(new YAMLFactory()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES));

    private ExperimentFile() {
    }

    static ExperimentSpec read(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("no such experiment file: " + file);
        }
        JsonNode root;
        try {
            root = YAML.readTree(file.toFile());
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": not valid YAML: " + e.getMessage().lines().findFirst().orElse(""));
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException(file + ": an experiment file is a YAML mapping (name:, workload:, matrix: ...)");
        }
        String stem = file.getFileName().toString().replaceFirst("\\.ya?ml$", "");
        return parse(file.getFileName().toString(), root, stem);
    }

    static ExperimentSpec parse(String where, JsonNode root, String defaultName) {
        String name = defaultName;
        String description = null;
        String workload = null;
        int repeat = DEFAULT_REPEAT;
        boolean adaptive = false;
        Map<String, String> settings = new LinkedHashMap<>();
        Map<String, List<String>> matrix = new LinkedHashMap<>();
        List<ExperimentSpec.Step> steps = new ArrayList<>();
        ExperimentSpec.RateSweep sweep = null;
        ExperimentSpec.RateSearch search = null;
        boolean repeatGiven = false;
        ExperimentSpec.Objective objective = null;
        String alpha = null;
        String minEffect = null;
        for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String key = e.getKey();
            JsonNode v = e.getValue();
            switch (key) {
                case "name" -> name = scalar(where, key, v);
                case "description" -> description = scalar(where, key, v);
                case "workload" -> workload = scalar(where, key, v);
                case "repeat" -> {
                    Repeat parsed = repeat(where + ": repeat", v.asText());
                    repeat = parsed.times();
                    adaptive = parsed.adaptive();
                    repeatGiven = true;
                }
                case "matrix" -> matrix = matrix(where, v);
                case "steps" -> steps = steps(where, v);
                case "rate-sweep" -> sweep = rateSweep(where, v);
                case "rate-search" -> search = rateSearch(where, v);
                case "objective" -> objective = objective(where, v);
                case "alpha" -> alpha = scalar(where, key, v);
                case "min-effect" -> minEffect = scalar(where, key, v);
                default -> {
                    if (!RunSettings.names().contains(key)) {
                        throw new IllegalArgumentException(where + ": unknown key '" + key + "'; accepted: "
                                + String.join(", ", new java.util.TreeSet<>(KEYS)) + " and the run settings: "
                                + String.join(", ", RunSettings.names()));
                    }
                    if (v.isArray()) {
                        throw new IllegalArgumentException(where + ": " + key + ": a list of values belongs under matrix:");
                    }
                    settings.put(key, setting(where, key, v));
                }
            }
        }
        if (workload == null) {
            throw new IllegalArgumentException(where + ": workload: missing; name the workload to run (workload: NAME), one of: "
                    + String.join(", ", perflab.core.workload.Workloads.all().stream().map(w -> w.name()).sorted().toList()));
        }
        int plans = (matrix.isEmpty() ? 0 : 1) + (steps.isEmpty() ? 0 : 1) + (sweep == null ? 0 : 1) + (search == null ? 0 : 1);
        if (plans > 1) {
            throw new IllegalArgumentException(where + ": give one of matrix:, steps:, rate-sweep: or rate-search:, not several");
        }
        if ((sweep != null || search != null) && settings.containsKey("rate")) {
            throw new IllegalArgumentException(where + ": rate: the rate " + (sweep != null ? "sweep" : "search")
                    + " sets the rate; drop rate: or " + (sweep != null ? "rate-sweep:" : "rate-search:"));
        }
        if (search != null) {
            if (repeatGiven && (repeat != 1 || adaptive)) {
                throw new IllegalArgumentException(where + ": repeat: a rate search runs each rate once (and its capacity "
                        + "twice, confirm:); to see its spread, run the search again");
            }
            repeat = 1;
        }
        if (name == null || !name.matches("[A-Za-z0-9][A-Za-z0-9._-]{0,63}")) {
            throw new IllegalArgumentException(where + ": name: '" + name + "' must be letters, digits, '.', '_' or '-' (at most 64)");
        }
        ExperimentSpec.Decision decision = decision(where, alpha, minEffect);
        if (adaptive) {
            decision = (decision == null ? ExperimentSpec.Decision.DEFAULT : decision).adaptive(true);
        }
        return new ExperimentSpec(name, description, workload, settings, repeat, matrix, steps, sweep, objective,
                decision, search);
    }

    /** A repeat count, or {@code auto[:MAX]}: rounds until the answer is clear, at most MAX. */
    record Repeat(int times, boolean adaptive) {
    }

    static Repeat repeat(String what, String text) {
        String t = text.trim();
        if (t.equals("auto") || t.startsWith("auto:")) {
            String max = t.equals("auto") ? "10" : t.substring(5);
            if (!max.matches("\\d{1,3}") || Integer.parseInt(max) < 3 || Integer.parseInt(max) > 100) {
                throw new IllegalArgumentException(what + ": '" + text + "': auto:MAX needs MAX within 3..100 (auto: 10)");
            }
            return new Repeat(Integer.parseInt(max), true);
        }
        if (!t.matches("\\d{1,3}") || Integer.parseInt(t) < 1 || Integer.parseInt(t) > 100) {
            throw new IllegalArgumentException(what + ": '" + text + "' is not a number within 1..100 or auto[:MAX]");
        }
        return new Repeat(Integer.parseInt(t), false);
    }

    /**
     * How sure a best configuration must be: {@code alpha} (0.05) and {@code min-effect} (2%, a percentage with or
     * without its %); null: the default.
     */
    static ExperimentSpec.Decision decision(String where, String alpha, String minEffect) {
        if (alpha == null && minEffect == null) {
            return null;
        }
        ExperimentSpec.Decision d = ExperimentSpec.Decision.DEFAULT;
        double a = d.alpha();
        double m = d.minEffectPercent();
        try {
            if (alpha != null) {
                a = Double.parseDouble(alpha.trim());
            }
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(where + ": alpha: '" + alpha + "' is not a number (e.g. 0.05)");
        }
        try {
            if (minEffect != null) {
                m = Double.parseDouble(minEffect.trim().replaceFirst("%$", ""));
            }
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(where + ": min-effect: '" + minEffect + "' is not a percentage (e.g. 2%)");
        }
        try {
            return new ExperimentSpec.Decision(a, m);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage());
        }
    }

    private static Map<String, List<String>> matrix(String where, JsonNode v) {
        if (!v.isObject() || v.isEmpty()) {
            throw new IllegalArgumentException(where + ": matrix: give settings and their values, e.g. matrix: {heap: [256m, 1g], gc: [parallel, g1]}");
        }
        Map<String, List<String>> m = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            RunSettings.checkName(where + ", matrix", e.getKey());
            List<String> values = new ArrayList<>();
            if (e.getValue().isArray()) {
                for (JsonNode x : e.getValue()) {
                    values.add(setting(where + ", matrix", e.getKey(), x));
                }
            } else {
                values.add(setting(where + ", matrix", e.getKey(), e.getValue()));
            }
            if (values.isEmpty()) {
                throw new IllegalArgumentException(where + ", matrix: " + e.getKey() + ": give at least one value");
            }
            if (values.size() != values.stream().distinct().count()) {
                throw new IllegalArgumentException(where + ", matrix: " + e.getKey() + ": a value is given twice: " + values);
            }
            m.put(e.getKey(), values);
        }
        return m;
    }

    private static List<ExperimentSpec.Step> steps(String where, JsonNode v) {
        if (!v.isArray() || v.isEmpty()) {
            throw new IllegalArgumentException(where + ": steps: give a list of steps, e.g. steps: [{name: defaults}, {name: heap, heap: 1g}]");
        }
        List<ExperimentSpec.Step> steps = new ArrayList<>();
        int i = 0;
        for (JsonNode step : v) {
            i++;
            String at = where + ", step " + i;
            if (!step.isObject()) {
                throw new IllegalArgumentException(at + ": a step is a mapping of name: and the settings it adds");
            }
            String name = null;
            Map<String, String> s = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = step.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (e.getKey().equals("name")) {
                    name = scalar(at, "name", e.getValue());
                    continue;
                }
                RunSettings.checkName(at, e.getKey());
                if (e.getValue().isArray()) {
                    throw new IllegalArgumentException(at + ": " + e.getKey() + ": a step sets one value (lists belong under matrix:)");
                }
                s.put(e.getKey(), setting(at, e.getKey(), e.getValue()));
            }
            steps.add(new ExperimentSpec.Step(name, s));
        }
        return steps;
    }

    private static ExperimentSpec.RateSweep rateSweep(String where, JsonNode v) {
        String at = where + ", rate-sweep";
        List<String> rates = new ArrayList<>();
        JsonNode list = v.isArray() ? v : v.path("rates");
        if (v.isObject()) {
            for (Iterator<String> it = v.fieldNames(); it.hasNext(); ) {
                String k = it.next();
                if (!Set.of("rates", "from", "to", "step").contains(k)) {
                    throw new IllegalArgumentException(at + ": unknown key '" + k + "'; accepted: rates, or from, to, step");
                }
            }
        }
        if (list.isArray()) {
            list.forEach(x -> rates.add(scalar(at, "rates", x)));
        } else if (v.isObject() && v.has("from") && v.has("to") && v.has("step")) {
            double from = Quantities.rate(at + ": from", scalar(at, "from", v.get("from")));
            double to = Quantities.rate(at + ": to", scalar(at, "to", v.get("to")));
            double step = Quantities.rate(at + ": step", scalar(at, "step", v.get("step")));
            if (to < from || (to - from) / step > 100) {
                throw new IllegalArgumentException(at + ": from " + from + " to " + to + " by " + step
                        + " must go up, in at most 100 steps");
            }
            for (double r = from; r <= to + 1e-9; r += step) {
                rates.add(r == Math.rint(r) ? Long.toString((long) r) : Double.toString(r));
            }
        } else {
            throw new IllegalArgumentException(at + ": give rates: [500, 1000, 2000] or from:, to:, step:");
        }
        if (rates.size() < 2) {
            throw new IllegalArgumentException(at + ": give at least two rates");
        }
        double previous = 0;
        for (String r : rates) {
            double x = Quantities.rate(at + ": rate", r);
            if (x <= previous) {
                throw new IllegalArgumentException(at + ": the rates must increase; '" + r + "' does not");
            }
            previous = x;
        }
        return new ExperimentSpec.RateSweep(rates);
    }

    static final Set<String> SEARCH_KEYS = Set.of("start", "max", "resolution", "goal-ms", "confirm", "trials");

    private static ExperimentSpec.RateSearch rateSearch(String where, JsonNode v) {
        String at = where + ", rate-search";
        if (!v.isObject()) {
            throw new IllegalArgumentException(at + ": give start: (and max:, resolution:, goal-ms:, confirm:, trials:)");
        }
        for (Iterator<String> it = v.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!SEARCH_KEYS.contains(k)) {
                throw new IllegalArgumentException(at + ": unknown key '" + k + "'; accepted: "
                        + String.join(", ", new java.util.TreeSet<>(SEARCH_KEYS)));
            }
        }
        if (!v.has("start")) {
            throw new IllegalArgumentException(at + ": start: missing; give the first rate, e.g. start: 50");
        }
        JsonNode confirm = v.get("confirm");
        if (confirm != null && !confirm.isBoolean()) {
            throw new IllegalArgumentException(at + ": confirm: give true or false");
        }
        return rateSearch(at, scalar(at, "start", v.get("start")), v.has("max") ? scalar(at, "max", v.get("max")) : null,
                v.has("resolution") ? scalar(at, "resolution", v.get("resolution")) : null,
                v.has("goal-ms") ? scalar(at, "goal-ms", v.get("goal-ms")) : null, confirm == null || confirm.asBoolean(),
                v.has("trials") ? scalar(at, "trials", v.get("trials")) : null);
    }

    /** A rate search from its values as typed (a file's rate-search:, or perflab tune's --search flags). */
    static ExperimentSpec.RateSearch rateSearch(String at, String start, String max, String resolution, String goalMs,
                                                boolean confirm, String trials) {
        double from = Quantities.rate(at + ": start", start);
        if (max != null && Quantities.rate(at + ": max", max) < from) {
            throw new IllegalArgumentException(at + ": max " + max + " is below start " + start);
        }
        double res = ExperimentSpec.RateSearch.DEFAULT_RESOLUTION_PERCENT;
        if (resolution != null) {
            res = number(at + ": resolution", resolution.trim().replaceFirst("%$", ""));
            if (!(res >= 0.1 && res <= 50)) {
                throw new IllegalArgumentException(at + ": resolution: '" + resolution + "' must be 0.1-50 % of the rate");
            }
        }
        Double goal = goalMs == null ? null : objective(at, "goal", goalMs).goalMs();
        int most = ExperimentSpec.RateSearch.DEFAULT_MAX_TRIALS;
        if (trials != null) {
            if (!trials.trim().matches("\\d{1,3}") || Integer.parseInt(trials.trim()) < 2 || Integer.parseInt(trials.trim()) > 100) {
                throw new IllegalArgumentException(at + ": trials: '" + trials + "' must be a number within 2..100");
            }
            most = Integer.parseInt(trials.trim());
        }
        if (from < perflab.experiment.study.CapacitySearch.LOWEST_RATE) {
            throw new IllegalArgumentException(at + ": start: " + start + " is below " + perflab.experiment.study.CapacitySearch.LOWEST_RATE + "/s");
        }
        return new ExperimentSpec.RateSearch(start.trim(), max == null ? null : max.trim(), res, goal, confirm, most);
    }

    private static double number(String what, String text) {
        try {
            return Double.parseDouble(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(what + ": '" + text + "' is not a number");
        }
    }

    private static ExperimentSpec.Objective objective(String where, JsonNode v) {
        String at = where + ", objective";
        List<String> accepted = PERCENTILES.stream().map(p -> p + "-ms").toList();
        if (!v.isObject() || v.size() != 1) {
            throw new IllegalArgumentException(at + ": give one latency goal, e.g. objective: {p99-ms: 50}; accepted: "
                    + String.join(", ", accepted));
        }
        Map.Entry<String, JsonNode> e = v.fields().next();
        if (!accepted.contains(e.getKey())) {
            throw new IllegalArgumentException(at + ": unknown goal '" + e.getKey() + "'; accepted: " + String.join(", ", accepted));
        }
        return objective(at, e.getKey().replace("-ms", ""), scalar(at, e.getKey(), e.getValue()));
    }

    static ExperimentSpec.Objective objective(String at, String percentile, String ms) {
        double goal;
        try {
            goal = Double.parseDouble(ms.trim());
        } catch (NumberFormatException ex) {
            goal = -1;
        }
        if (!(goal > 0)) {
            throw new IllegalArgumentException(at + ": " + percentile + "-ms: '" + ms + "' is not a number of milliseconds above 0");
        }
        return new ExperimentSpec.Objective(percentile, goal);
    }

    private static String scalar(String where, String key, JsonNode v) {
        if (v == null || v.isContainerNode() || v.isNull()) {
            throw new IllegalArgumentException(where + ": " + key + ": give one value");
        }
        return v.asText();
    }

    /** A setting's value as the CLI takes it; YAML booleans become on/off except for flags (jfr). */
    private static String setting(String where, String key, JsonNode v) {
        if (v.isNull()) {
            return "";
        }
        String s = scalar(where, key, v);
        if (v.isBoolean() && !RunSettings.isFlag(key)) {
            return v.asBoolean() ? "on" : "off";
        }
        return s;
    }

    /** Writes the experiment as run (the format read() reads) atomically. */
    static void write(Path file, ExperimentSpec spec) throws IOException {
        ObjectNode root = YAML.createObjectNode();
        root.put("name", spec.name());
        if (spec.description() != null) {
            root.put("description", spec.description());
        }
        root.put("workload", spec.workload());
        if (spec.decision().adaptive()) {
            root.put("repeat", "auto:" + spec.repeat());
        } else {
            root.put("repeat", spec.repeat());
        }
        spec.settings().forEach(root::put);
        if (!spec.matrix().isEmpty()) {
            ObjectNode m = root.putObject("matrix");
            spec.matrix().forEach((k, values) -> values.forEach(m.putArray(k)::add));
        }
        if (!spec.steps().isEmpty()) {
            var a = root.putArray("steps");
            for (ExperimentSpec.Step s : spec.steps()) {
                ObjectNode n = a.addObject();
                if (s.name() != null) {
                    n.put("name", s.name());
                }
                s.settings().forEach(n::put);
            }
        }
        if (spec.rateSweep() != null) {
            var a = root.putObject("rate-sweep").putArray("rates");
            spec.rateSweep().rates().forEach(a::add);
        }
        if (spec.rateSearch() != null) {
            ExperimentSpec.RateSearch rs = spec.rateSearch();
            ObjectNode n = root.putObject("rate-search");
            n.put("start", rs.start());
            if (rs.max() != null) {
                n.put("max", rs.max());
            }
            n.put("resolution", rs.resolutionPercent() + "%");
            if (rs.goalMs() != null) {
                n.put("goal-ms", rs.goalMs());
            }
            n.put("confirm", rs.confirm());
            n.put("trials", rs.maxTrials());
        }
        if (spec.objective() != null) {
            root.putObject("objective").put(spec.objective().percentile() + "-ms", spec.objective().goalMs());
        }
        if (!spec.decision().adaptive(false).equals(ExperimentSpec.Decision.DEFAULT)) {
            root.put("alpha", spec.decision().alpha());
            root.put("min-effect", spec.decision().minEffectPercent() + "%");
        }
        AtomicFiles.write(file, YAML.writeValueAsString(root));
    }
}
