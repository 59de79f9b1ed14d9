package perflab.scenario;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A string of a scenario file with variables in it: {@code /notes/${id}}, {@code Bearer ${token}}. Parts alternate
 * literal text and a variable's name; {@code $${} is a literal {@code ${}. Parsed once, when the file is read.
 *
 * @param parts literal text (a String) or a variable ({@link Var})
 */
record Text(List<Object> parts) {
    /** A variable named in a text. */
    record Var(String name) {
    }

    Text {
        parts = List.copyOf(parts);
    }

    static Text literal(String s) {
        return new Text(s.isEmpty() ? List.of() : List.of(s));
    }

    /** Parses {@code s}; a malformed reference is an IllegalArgumentException whose message a reader places. */
    static Text parse(String s) {
        List<Object> parts = new ArrayList<>();
        StringBuilder literal = new StringBuilder();
        int i = 0;
        while (i < s.length()) {
            if (s.startsWith("$${", i)) {
                literal.append("${");
                i += 3;
            } else if (s.startsWith("${", i)) {
                int end = s.indexOf('}', i);
                if (end < 0) {
                    throw new IllegalArgumentException("'${' is not closed by '}' (write $${ for a literal ${)");
                }
                String name = s.substring(i + 2, end).trim();
                if (!name.matches(Scenario.VAR_NAME)) {
                    throw new IllegalArgumentException("'${" + name + "}' is not a variable's name (letters, digits, _ "
                            + "and -, a data file's column as FILE.COLUMN)");
                }
                if (!literal.isEmpty()) {
                    parts.add(literal.toString());
                    literal.setLength(0);
                }
                parts.add(new Var(name));
                i = end + 1;
            } else {
                literal.append(s.charAt(i++));
            }
        }
        if (!literal.isEmpty()) {
            parts.add(literal.toString());
        }
        return new Text(parts);
    }

    boolean constant() {
        return parts.stream().noneMatch(p -> p instanceof Var);
    }

    List<String> variables() {
        return parts.stream().filter(p -> p instanceof Var).map(p -> ((Var) p).name()).distinct().toList();
    }

    /** The text with each variable's value, encoded by {@code encode} (allocates: checks and one-off uses). */
    String render(Function<String, String> valueOf) {
        StringBuilder sb = new StringBuilder();
        for (Object p : parts) {
            sb.append(p instanceof Var v ? valueOf.apply(v.name()) : (String) p);
        }
        return sb.toString();
    }

    /** The literal text before the first variable. */
    String prefix() {
        return parts.isEmpty() || parts.get(0) instanceof Var ? "" : (String) parts.get(0);
    }

    @Override
    public String toString() {
        return render(name -> "${" + name + "}");
    }
}
