package perflab.scenario;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import perflab.core.traffic.ErrorKind;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * What a response must show. {@link #failure} is null when it does; otherwise the reason, for the error's sample. The
 * cheap kinds (status, contains, header) scan bytes; regex, JSON and XPath read the body as their step's
 * {@link ResponseReading} makes it once.
 */
sealed interface Check permits Check.Status, Check.Contains, Check.Matches, Check.JsonValue, Check.XPathValue,
        Check.Header {

    /** Null when the response passes; else why not. {@code values} gives the request's variables. */
    String failure(ResponseReading r, Function<String, String> values, XPaths xpaths);

    /** The error kind a failure counts as. */
    default ErrorKind errorKind() {
        return ErrorKind.VALIDATION;
    }

    /** Any of the status ranges. */
    record Status(List<int[]> ranges, String written) implements Check {
        @Override
        public String failure(ResponseReading r, Function<String, String> values, XPaths xpaths) {
            int s = r.response().status();
            for (int[] range : ranges) {
                if (s >= range[0] && s <= range[1]) {
                    return null;
                }
            }
            return "status " + s + ", expected " + written;
        }

        @Override
        public ErrorKind errorKind() {
            return ErrorKind.HTTP_STATUS;
        }
    }

    /** The body holds the text (or, {@code absent}, does not). A constant text is searched as bytes made once. */
    record Contains(Text text, boolean absent, byte[] constant) implements Check {
        static Contains of(Text text, boolean absent) {
            return new Contains(text, absent, text.constant() ? text.render(n -> "").getBytes(StandardCharsets.UTF_8) : null);
        }

        @Override
        public String failure(ResponseReading r, Function<String, String> values, XPaths xpaths) {
            byte[] needle = constant != null ? constant : text.render(values).getBytes(StandardCharsets.UTF_8);
            boolean found = r.response().indexOf(needle, 0) >= 0;
            if (found == !absent) {
                return null;
            }
            return (absent ? "the body holds '" : "the body lacks '") + shorten(new String(needle, StandardCharsets.UTF_8)) + "'";
        }
    }

    /** The body matches the regular expression somewhere (or, {@code absent}, nowhere). */
    record Matches(Pattern regex, boolean absent) implements Check {
        @Override
        public String failure(ResponseReading r, Function<String, String> values, XPaths xpaths) {
            boolean found = regex.matcher(r.text()).find();
            return found == !absent ? null : (absent ? "the body matches /" : "the body does not match /") + regex + "/";
        }
    }

    /** The value at a JSON pointer equals the text; with no text, that there is a value. */
    record JsonValue(JsonPointer pointer, Text equals) implements Check {
        @Override
        public String failure(ResponseReading r, Function<String, String> values, XPaths xpaths) {
            JsonNode root = r.json();
            if (root == null) {
                return "the body is not JSON";
            }
            JsonNode at = root.at(pointer);
            if (at.isMissingNode()) {
                return "no value at JSON pointer " + pointer;
            }
            if (equals == null) {
                return null;
            }
            String actual = at.isValueNode() ? at.asText() : at.toString();
            String expected = equals.render(values);
            return actual.equals(expected) ? null : "JSON " + pointer + " is '" + shorten(actual) + "', expected '" + shorten(expected) + "'";
        }
    }

    /** The text of what an XPath selects equals the text; with no text, that it selects something. */
    record XPathValue(String expression, Text equals) implements Check {
        @Override
        public String failure(ResponseReading r, Function<String, String> values, XPaths xpaths) {
            List<String> found;
            try {
                found = xpaths.values(expression, r.xml(), false);
            } catch (IllegalStateException e) {
                return e.getMessage();
            }
            if (found.isEmpty()) {
                return "xpath " + expression + " selects nothing";
            }
            if (equals == null) {
                return null;
            }
            String expected = equals.render(values);
            return found.get(0).equals(expected) ? null : "xpath " + expression + " is '" + shorten(found.get(0))
                    + "', expected '" + shorten(expected) + "'";
        }
    }

    /** A header is there; with {@code equals} or {@code contains}, with that value. */
    record Header(String name, Text equals, Text contains) implements Check {
        @Override
        public String failure(ResponseReading r, Function<String, String> values, XPaths xpaths) {
            String v = r.response().header(name);
            if (v == null) {
                return "no " + name + " header";
            }
            if (equals != null && !v.equals(equals.render(values))) {
                return "header " + name + " is '" + shorten(v) + "', expected '" + shorten(equals.render(values)) + "'";
            }
            if (contains != null && !v.contains(contains.render(values))) {
                return "header " + name + " '" + shorten(v) + "' lacks '" + shorten(contains.render(values)) + "'";
            }
            return null;
        }
    }

    static String shorten(String s) {
        String one = s.replaceAll("\\s+", " ");
        return one.length() > 80 ? one.substring(0, 80) + "..." : one;
    }
}
