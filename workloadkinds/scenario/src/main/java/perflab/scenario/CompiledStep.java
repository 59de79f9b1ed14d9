package perflab.scenario;

import perflab.core.traffic.RequestTemplate;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A step made into the driver's request template: literal bytes encoded once, each variable a slot written per
 * request in the encoding its place needs ({@code ${component.symbol}} in a query, {@code ${form.user}} in a form,
 * the session's cookies in {@code ${cookie}}, a header the driver leaves out while the jar is empty).
 */
final class CompiledStep {
    static final String COOKIE = "cookie";

    final Step step;
    final RequestTemplate template;
    /** Per slot of the template: the variable's id, or -1 for the cookie slot. */
    final int[] slotVariable;
    final Encoding[] slotEncoding;
    final int cookieSlot;
    /**
     * The path cookies are matched against when it is known before the request is made: the step's path up to its
     * '?', when no variable comes before it; null when a variable does (a link taken from a page, an id in the path):
     * then the request's own path is matched, made per request.
     */
    final String cookiePath;
    /** The variables the request uses (each takes one value per request), by id. */
    final int[] uses;
    final int[] ifPresent;
    final int[] ifAbsent;
    /** The list variable whose value the request takes off its list, or -1. */
    final int consume;
    /** Per entry of the step's set: its variable's id and its text (null: forget). */
    final int[] setInto;
    final Text[] setText;
    /** Per extraction, the id of its variable. */
    final int[] extractInto;

    CompiledStep(Step step, String basePath, Map<String, Integer> ids) {
        this.step = step;
        RequestTemplate.Builder b = RequestTemplate.builder(step.kind(), step.method()).resendable(step.resend());
        List<String> slotNames = new ArrayList<>();
        b.path(pattern(joinPath(basePath, step.path()), true, Encoding.COMPONENT, slotNames));
        for (Map.Entry<String, Text> h : step.headers().entrySet()) {
            b.header(h.getKey(), pattern(h.getValue(), false, Encoding.RAW, slotNames));
        }
        if (step.body() != null) {
            if (step.body().contentType() != null && step.headers().keySet().stream().noneMatch(n -> n.equalsIgnoreCase("Content-Type"))) {
                b.header("Content-Type", step.body().contentType().replace("${", "$${"));
            }
            b.body(pattern(step.body().text(), false, step.body().encoding(), slotNames));
        }
        b.header("Cookie", "${" + COOKIE + "}");
        this.template = b.build();
        int n = template.slots().size();
        slotVariable = new int[n];
        slotEncoding = new Encoding[n];
        int cookie = -1;
        for (int i = 0; i < n; i++) {
            String name = template.slots().get(i).name();
            if (name.equals(COOKIE)) {
                cookie = i;
                slotVariable[i] = -1;
                continue;
            }
            int dot = name.indexOf('.');
            slotEncoding[i] = Encoding.valueOf(name.substring(0, dot).toUpperCase(java.util.Locale.ROOT));
            slotVariable[i] = ids.get(name.substring(dot + 1));
        }
        cookieSlot = cookie;
        Text joined = joinPath(basePath, step.path());
        String prefix = joined.prefix();
        int q = prefix.indexOf('?');
        cookiePath = q >= 0 ? prefix.substring(0, q) : joined.constant() ? (prefix.isEmpty() ? "/" : prefix) : null;
        List<String> used = new ArrayList<>(step.path().variables());
        step.headers().values().forEach(t -> used.addAll(t.variables()));
        if (step.body() != null) {
            used.addAll(step.body().text().variables());
        }
        step.checks().forEach(c -> used.addAll(variablesOf(c)));
        step.deepChecks().forEach(c -> used.addAll(variablesOf(c)));
        step.set().values().stream().filter(java.util.Objects::nonNull).forEach(t -> used.addAll(t.variables()));
        uses = used.stream().distinct().mapToInt(ids::get).toArray();
        ifPresent = step.ifPresent().stream().mapToInt(ids::get).toArray();
        ifAbsent = step.ifAbsent().stream().mapToInt(ids::get).toArray();
        consume = step.consume() == null ? -1 : ids.get(step.consume());
        setInto = step.set().keySet().stream().mapToInt(ids::get).toArray();
        setText = step.set().values().toArray(Text[]::new);
        extractInto = step.extractions().stream().mapToInt(e -> ids.get(e.variable())).toArray();
    }

    private static List<String> variablesOf(Check c) {
        List<Text> texts = new ArrayList<>();
        if (c instanceof Check.Contains x) {
            texts.add(x.text());
        } else if (c instanceof Check.JsonValue x && x.equals() != null) {
            texts.add(x.equals());
        } else if (c instanceof Check.XPathValue x && x.equals() != null) {
            texts.add(x.equals());
        } else if (c instanceof Check.Header x) {
            if (x.equals() != null) {
                texts.add(x.equals());
            }
            if (x.contains() != null) {
                texts.add(x.contains());
            }
        }
        return texts.stream().flatMap(t -> t.variables().stream()).toList();
    }

    /**
     * The target's path (without a trailing /) and the step's; a path a variable begins is a link taken from a page,
     * already the server's whole path.
     */
    static Text joinPath(String basePath, Text path) {
        String base = basePath.endsWith("/") ? basePath.substring(0, basePath.length() - 1) : basePath;
        List<Object> parts = new ArrayList<>();
        if (!base.isEmpty() && !path.parts().isEmpty() && !(path.parts().get(0) instanceof Text.Var)) {
            parts.add(base);
        }
        parts.addAll(path.parts());
        return new Text(parts);
    }

    /**
     * The text as a template pattern: {@code $} of the literal escaped, each variable a slot named by its encoding. In
     * a path a variable that begins it is a path of its own (a link taken from a page), others are components.
     */
    private static String pattern(Text text, boolean path, Encoding encoding, List<String> slotNames) {
        StringBuilder sb = new StringBuilder();
        boolean first = true;
        for (Object p : text.parts()) {
            if (p instanceof Text.Var v) {
                Encoding e = path && first ? Encoding.PATH : encoding;
                String slot = e.slotPrefix() + "." + v.name();
                sb.append("${").append(slot).append('}');
                slotNames.add(slot);
            } else {
                sb.append(((String) p).replace("${", "$${"));
            }
            first = false;
        }
        return sb.toString();
    }
}
