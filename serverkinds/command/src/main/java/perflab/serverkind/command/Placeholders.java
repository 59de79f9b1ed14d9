package perflab.serverkind.command;

import perflab.core.server.ServerFile;

import java.util.Map;
import java.util.regex.Matcher;

/**
 * Fills a server file's {@code {placeholders}} with their values for one run. Ports are not known yet when a run
 * is laid out: their placeholders become perflab's port references ({@code {sut.port}}), which the run fills in
 * once it has chosen them. A {@code ${...}} is the product's own syntax and stays.
 */
final class Placeholders {
    private final Map<String, String> values;

    Placeholders(Map<String, String> values) {
        this.values = Map.copyOf(values);
    }

    /**
     * {@code text} with every placeholder filled; IllegalArgumentException naming {@code where} for one that has no
     * value (a file of the home may hold any text: its placeholders are checked here, not when the file is read).
     */
    String fill(String text, String where) {
        Matcher m = ServerFile.PLACEHOLDER.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = values.get(m.group(1));
            if (value == null) {
                throw new IllegalArgumentException(where + ": unknown placeholder {" + m.group(1) + "}; known: "
                        + String.join(", ", new java.util.TreeSet<>(values.keySet())));
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        m.appendTail(out);
        return out.toString();
    }
}
