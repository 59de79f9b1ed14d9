package perflab.experiment.run;

import perflab.core.sut.SutBootstrap;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The lines of perflab's process protocol ({@link SutBootstrap}) that a started process prints before it is ready,
 * read: the ports of its READY line, the facts of its FACT lines.
 */
final class ProtocolLines {
    private ProtocolLines() {
    }

    /**
     * The ports of a READY line, by name: {@code PERFLAB-READY port=8080 sip=5060} gives {port=8080, sip=5060};
     * words that are not name=number are ignored.
     */
    static Map<String, Integer> readyPorts(String line) {
        Map<String, Integer> found = new LinkedHashMap<>();
        for (String word : line.substring(SutBootstrap.READY.length()).trim().split("\\s+")) {
            int eq = word.indexOf('=');
            if (eq > 0 && word.substring(eq + 1).matches("\\d{1,5}")) {
                found.put(word.substring(0, eq), Integer.parseInt(word.substring(eq + 1)));
            }
        }
        return Map.copyOf(found);
    }

    /**
     * Adds a {@code PERFLAB-FACT <name> <value>} line's fact to {@code facts}: the value as a number when it is one
     * (so that run.json's readers get numbers), else as text; a line without a value is ignored.
     */
    static void fact(String line, Map<String, Object> facts) {
        String[] words = line.substring(SutBootstrap.FACT.length()).trim().split(" ", 2);
        if (words.length < 2 || !words[0].matches(SutBootstrap.FACT_NAME)) {
            return;
        }
        String value = words[1].trim();
        Object parsed = value;
        if (value.matches("-?\\d{1,18}")) {
            parsed = Long.parseLong(value);
        } else if (value.matches("-?\\d+\\.\\d+")) {
            parsed = Double.parseDouble(value);
        } else if (value.equals("true") || value.equals("false")) {
            parsed = Boolean.parseBoolean(value);
        }
        facts.put(words[0], parsed);
    }
}
