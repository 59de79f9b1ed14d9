package perflab.trade;

import perflab.core.traffic.ResponseView;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** A response held in memory, with helpers to spoil it for the failure tests. */
record FakeResponse(int status, Map<String, List<String>> headerMap, byte[] body) implements ResponseView {

    static FakeResponse page(int status, String html) {
        return new FakeResponse(status, Map.of("Content-Type", List.of("text/html; charset=UTF-8")),
                html.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public String header(String name) {
        List<String> all = headers(name);
        return all.isEmpty() ? null : all.get(0);
    }

    @Override
    public List<String> headers(String name) {
        List<String> values = new ArrayList<>();
        headerMap.forEach((n, v) -> {
            if (n.toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT))) {
                values.addAll(v);
            }
        });
        return values;
    }

    @Override
    public int bodyLength() {
        return body.length;
    }

    @Override
    public byte bodyByte(int index) {
        return body[index];
    }

    /** The same response with the first {@code text} of its body replaced. */
    FakeResponse replacing(String text, String by) {
        String html = new String(body, StandardCharsets.UTF_8);
        if (!html.contains(text)) {
            throw new IllegalArgumentException("the page has no '" + text + "':\n" + html);
        }
        return new FakeResponse(status, headerMap, html.replaceFirst(java.util.regex.Pattern.quote(text),
                java.util.regex.Matcher.quoteReplacement(by)).getBytes(StandardCharsets.UTF_8));
    }

    FakeResponse withStatus(int newStatus) {
        return new FakeResponse(newStatus, headerMap, body);
    }

    String text() {
        return new String(body, StandardCharsets.UTF_8);
    }
}
