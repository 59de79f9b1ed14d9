package perflab.scenario;

import java.util.List;
import java.util.Map;

/**
 * One request of a scenario: what to send, what its answer must show, what to take from it.
 *
 * @param kind        its name for the per-kind figures ({@code byKind})
 * @param headers     request headers by name (values may hold variables)
 * @param body        null: no body
 * @param checks      checked on every response
 * @param deepChecks  checked on the run's sample of responses only (the deep check)
 * @param extractions values taken from the response into variables, in order
 * @param think       null: the file's default, or the run's --think-time
 * @param ifPresent   variables that must hold a value for the step to be sent; it is skipped otherwise
 * @param ifAbsent    variables that must hold no value for the step to be sent (a buy when there is nothing to sell)
 * @param consume     a list variable whose value this request uses is taken off its list as the request goes out (a
 *                    holding sold is not sold again); null: none
 * @param set         variables given a value when the answer passed its checks, after the extractions: the text, its
 *                    variables as this request used them; a null text forgets the variable's value
 * @param resend      whether the driver may send it again when its kept-alive connection closes unanswered (for an
 *                    idempotent method; false for a GET that changes something)
 */
record Step(String kind, String method, Text path, Map<String, Text> headers, Body body, List<Check> checks,
            List<Check> deepChecks, List<Extraction> extractions, Scenario.Think think, List<String> ifPresent,
            List<String> ifAbsent, String consume, Map<String, Text> set, boolean resend) {
    Step {
        headers = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(headers));
        checks = List.copyOf(checks);
        deepChecks = List.copyOf(deepChecks);
        extractions = List.copyOf(extractions);
        ifPresent = List.copyOf(ifPresent);
        ifAbsent = List.copyOf(ifAbsent);
        set = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(set)); // null values: forget
    }

    /** Whether a response of the step must be read as text beyond the cheap byte scans (regex, CSS, JSON, XPath). */
    boolean readsBody() {
        return extractions.stream().anyMatch(e -> e.kind() != Extraction.Kind.HEADER);
    }

    /**
     * A request body: its text with variables, and how a variable's value is escaped inside it (a form's fields
     * URL-encoded, JSON's strings and XML's text escaped).
     */
    record Body(Text text, Encoding encoding, String contentType) {
    }
}
