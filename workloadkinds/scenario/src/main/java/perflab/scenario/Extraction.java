package perflab.scenario;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A value taken from a response into a variable: by regular expression (its first group, or the whole match), CSS
 * selector (an attribute or the text of the elements it selects), JSON pointer, XPath, or header. With {@code all},
 * every match is kept and a request that uses the variable picks one at random (sell one of the holdings listed);
 * without it the first. A value that is not there fails the step, unless the extraction is {@code optional} (then the
 * variable has none, and a step with {@code ifPresent} on it is skipped).
 */
record Extraction(String variable, Kind kind, String expression, String attribute, boolean all, boolean optional,
                  Object compiled) {
    enum Kind { REGEX, CSS, JSON, XPATH, HEADER }

    /** The values in a response, in a new mutable list; empty when none. */
    List<String> values(ResponseReading r, XPaths xpaths) {
        List<String> found = new ArrayList<>();
        switch (kind) {
            case REGEX -> {
                Matcher m = ((Pattern) compiled).matcher(r.text());
                while (m.find()) {
                    found.add(m.groupCount() > 0 ? m.group(1) : m.group());
                    if (!all) {
                        break;
                    }
                }
            }
            case CSS -> {
                for (org.jsoup.nodes.Element e : r.html().select((org.jsoup.select.Evaluator) compiled)) {
                    String v = attribute == null ? e.text() : e.attr(attribute);
                    if (attribute == null || e.hasAttr(attribute)) {
                        found.add(v);
                    }
                    if (!all && !found.isEmpty()) {
                        break;
                    }
                }
            }
            case JSON -> {
                JsonNode root = r.json();
                JsonNode at = root == null ? null : root.at((JsonPointer) compiled);
                if (at != null && !at.isMissingNode() && !at.isNull()) {
                    if (at.isArray() && all) {
                        at.forEach(item -> found.add(item.isValueNode() ? item.asText() : item.toString()));
                    } else {
                        found.add(at.isValueNode() ? at.asText() : at.toString());
                    }
                }
            }
            case XPATH -> found.addAll(xpaths.values(expression, r.xml(), all));
            case HEADER -> {
                for (String v : r.response().headers(expression)) {
                    found.add(v);
                    if (!all) {
                        break;
                    }
                }
            }
        }
        return found;
    }

    String describe() {
        return kind.name().toLowerCase(java.util.Locale.ROOT) + " '" + expression + "'"
                + (attribute == null ? "" : " attr " + attribute);
    }
}
