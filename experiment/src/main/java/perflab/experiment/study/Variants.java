package perflab.experiment.study;

import perflab.core.config.ExperimentSpec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Expands an experiment into its configurations: every combination of a matrix (the first setting
 * outermost, so that tables group by it), cumulative steps, or one configuration per rate of a rate sweep.
 * JVM flags accumulate (shared flags, then the matrix's or each step's); every other setting is replaced.
 */
public final class Variants {
    /** The setting whose values accumulate instead of replacing each other. */
    public static final String JVM = "jvm";

    private Variants() {
    }

    public static List<Variant> of(ExperimentSpec spec) {
        List<Variant> out = new ArrayList<>();
        Map<String, String> base = spec.settings();
        switch (spec.kind()) {
            case SINGLE -> out.add(variant(1, "baseline", base, Map.of(), null));
            case MATRIX -> {
                List<Map<String, String>> combos = new ArrayList<>();
                combos.add(new LinkedHashMap<>());
                for (Map.Entry<String, List<String>> dim : spec.matrix().entrySet()) {
                    List<Map<String, String>> next = new ArrayList<>();
                    for (Map<String, String> combo : combos) {
                        for (String value : dim.getValue()) {
                            Map<String, String> c = new LinkedHashMap<>(combo);
                            c.put(dim.getKey(), value);
                            next.add(c);
                        }
                    }
                    combos = next;
                }
                for (Map<String, String> combo : combos) {
                    out.add(variant(out.size() + 1, describe(combo), merge(base, combo), combo, null));
                }
            }
            case STEPS -> {
                Map<String, String> cumulative = new LinkedHashMap<>();
                for (ExperimentSpec.Step step : spec.steps()) {
                    cumulative = merge(cumulative, step.settings());
                    String name = step.name() != null && !step.name().isBlank() ? step.name()
                            : step.settings().isEmpty() ? "baseline" : describe(step.settings());
                    out.add(variant(out.size() + 1, name, merge(base, cumulative), cumulative, step.settings()));
                }
            }
            case RATE_SWEEP -> {
                for (String rate : spec.rateSweep().rates()) {
                    Map<String, String> r = Map.of("rate", rate);
                    out.add(variant(out.size() + 1, describe(r), merge(base, r), r, null));
                }
            }
            // a search's trials are chosen as it goes: the first one stands for them (and is checked) here
            case RATE_SEARCH -> out.add(searchTrial(spec, 1, spec.rateSearch().start()));
        }
        return out;
    }

    /** A capacity search's trial {@code index} (1-based) at {@code rate}. */
    public static Variant searchTrial(ExperimentSpec spec, int index, String rate) {
        Map<String, String> r = Map.of("rate", rate);
        return variant(index, describe(r), merge(spec.settings(), r), r, null);
    }

    /** The settings of {@code later} over those of {@code earlier}; JVM flags are appended. */
    public static Map<String, String> merge(Map<String, String> earlier, Map<String, String> later) {
        Map<String, String> m = new LinkedHashMap<>(earlier);
        for (Map.Entry<String, String> e : later.entrySet()) {
            if (e.getKey().equals(JVM) && m.containsKey(JVM) && !m.get(JVM).isBlank()) {
                String added = e.getValue().trim();
                m.put(JVM, added.isEmpty() ? m.get(JVM) : m.get(JVM).trim() + " " + added);
            } else {
                m.put(e.getKey(), e.getValue());
            }
        }
        return m;
    }

    /** "gc=g1 heap=1g"; "defaults" when nothing is set. */
    public static String describe(Map<String, String> settings) {
        if (settings.isEmpty()) {
            return "defaults";
        }
        List<String> parts = new ArrayList<>();
        settings.forEach((k, v) -> parts.add(k + "=" + (v.isBlank() ? "(none)" : v)));
        return String.join(" ", parts);
    }

    private static Variant variant(int index, String name, Map<String, String> settings, Map<String, String> varied,
                                   Map<String, String> added) {
        return new Variant(index, String.format(Locale.ROOT, "%02d-%s", index, safe(name)), name, settings, varied, added);
    }

    /** A file-system safe, bounded form of a configuration's name. */
    static String safe(String name) {
        String s = name.replaceAll("[^A-Za-z0-9.+_-]+", "-").replaceAll("-{2,}", "-").replaceAll("^[-.]+|-+$", "");
        if (s.length() > 60) {
            s = s.substring(0, 60).replaceAll("-+$", "");
        }
        return s.isEmpty() ? "config" : s;
    }
}
