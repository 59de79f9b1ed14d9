package perflab.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A browser's recording (HAR 1.2, as Chromium's and Firefox's developer tools save it) made into a scenario file
 * (docs/scenarios.md, "From a recording"): one step per request of the application, whose host is the first page's;
 * static assets and other hosts left out and listed in the file's head; cookies left to the session's jar; each
 * value a request sent back that an earlier answer gave (a form's hidden token, an id in a link) found and turned
 * into an extraction on the step whose answer gave it, and a variable where it is sent; the pauses between requests
 * kept as think times; each step checked for the status it had.
 */
public final class HarImport {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> STATIC_EXTENSIONS = Set.of("css", "js", "mjs", "map", "png", "jpg", "jpeg", "gif",
            "svg", "ico", "webp", "avif", "woff", "woff2", "ttf", "otf", "eot", "mp4", "webm", "mp3");
    /** Pauses below this are the browser's own (following a redirect, fetching what a page needs), not a person's. */
    private static final long MIN_THINK_MS = 100;
    /** A value shorter than this is too common in pages (1, 10, ok) to be told apart from a constant. */
    private static final int MIN_VALUE_LENGTH = 2;
    private static final long MAX_HAR_BYTES = 256L * 1024 * 1024;

    private HarImport() {
    }

    /** The scenario file's text for the recording in {@code har}; IllegalArgumentException of one line for a bad file. */
    public static String toScenario(Path har, String name) throws IOException {
        return toScenario(har, name, true);
    }

    /** @param thinkTimes whether the pauses of the recording become think times (off: each session as fast as it goes) */
    public static String toScenario(Path har, String name, boolean thinkTimes) throws IOException {
        if (!Files.isRegularFile(har)) {
            throw new IllegalArgumentException("no such HAR file: " + har);
        }
        if (Files.size(har) > MAX_HAR_BYTES) {
            throw new IllegalArgumentException(har + ": over " + MAX_HAR_BYTES / 1024 / 1024 + " MB");
        }
        JsonNode root;
        try {
            root = JSON.readTree(har.toFile());
        } catch (IOException e) {
            throw new IllegalArgumentException(har + ": not JSON: " + e.getMessage().lines().findFirst().orElse(""));
        }
        JsonNode entries = root == null ? null : root.path("log").get("entries");
        if (entries == null || !entries.isArray()) {
            throw new IllegalArgumentException(har + ": not a HAR file (no log.entries); save it from the browser's "
                    + "developer tools (Network, Save all as HAR)");
        }
        return new Conversion(har.getFileName().toString(), name, thinkTimes).convert(entries);
    }

    /** One request of the recording, as read. */
    private record Entry(int index, String method, URI url, List<String[]> headers, String bodyType, String body,
                         int status, String responseType, String responseText, List<String[]> responseHeaders,
                         long startMillis, long timeMillis) {
        String origin() {
            return url.getScheme() + "://" + url.getHost() + (url.getPort() < 0 ? "" : ":" + url.getPort());
        }
    }

    /** A value taken from an answer: the step it comes from and how. */
    private record Binding(String variable, int step, Map<String, Object> extraction) {
    }

    private static final class Conversion {
        private final String file;
        private final String name;
        private final boolean thinkTimes;
        private final List<String> leftOut = new ArrayList<>();
        private final Map<String, Binding> byValue = new LinkedHashMap<>();
        private final Map<String, Integer> names = new HashMap<>();

        Conversion(String file, String name, boolean thinkTimes) {
            this.file = file;
            this.name = name;
            this.thinkTimes = thinkTimes;
        }

        String convert(JsonNode entries) {
            List<Entry> all = new ArrayList<>();
            for (int i = 0; i < entries.size(); i++) {
                Entry e = entry(entries.get(i), i);
                if (e != null) {
                    all.add(e);
                }
            }
            String origin = all.stream().filter(e -> e.responseType().startsWith("text/html")).map(Entry::origin)
                    .findFirst().orElse(all.isEmpty() ? null : all.get(0).origin());
            if (origin == null) {
                throw new IllegalArgumentException(file + ": the recording holds no request");
            }
            List<Entry> kept = new ArrayList<>();
            for (Entry e : all) {
                if (!e.origin().equals(origin)) {
                    leftOut.add(e.method() + " " + e.url() + " (another host)");
                } else if (isStatic(e)) {
                    leftOut.add(e.method() + " " + e.url().getRawPath() + " (static)");
                } else {
                    kept.add(e);
                }
            }
            if (kept.isEmpty()) {
                throw new IllegalArgumentException(file + ": no request of the application " + origin + " (only static assets)");
            }
            List<Map<String, Object>> steps = new ArrayList<>();
            for (int i = 0; i < kept.size(); i++) {
                steps.add(step(kept, i));
            }
            extractions.forEach((j, extract) -> steps.get(j).put("extract", extract));
            Map<String, Object> scenario = new LinkedHashMap<>();
            scenario.put("scenario", name);
            scenario.put("description", "recorded in " + file + " against " + origin);
            scenario.put("steps", steps);
            scenario.put("iterations", 1);
            StringBuilder head = new StringBuilder();
            head.append("# made by perflab scenario from-har ").append(file).append(" (docs/scenarios.md)\n");
            head.append("# run it: perflab run THIS.yaml --target ").append(origin).append('\n');
            head.append("# each session replays the recording once: its cookies are the session's own, and the values the\n");
            head.append("# server gave and the browser sent back are extracted (extract:) and sent as variables\n");
            if (!leftOut.isEmpty()) {
                head.append("# left out (").append(leftOut.size()).append("):\n");
                leftOut.stream().limit(100).forEach(l -> head.append("#   ").append(l.replace('\n', ' ')).append('\n'));
                if (leftOut.size() > 100) {
                    head.append("#   ... and ").append(leftOut.size() - 100).append(" more\n");
                }
            }
            return head + ScenarioYaml.write(scenario);
        }

        private Map<String, Object> step(List<Entry> kept, int i) {
            Entry e = kept.get(i);
            Map<String, Object> step = new LinkedHashMap<>();
            String path = e.url().getRawPath() == null || e.url().getRawPath().isEmpty() ? "/" : e.url().getRawPath();
            step.put("name", (e.method() + " " + path).replaceAll("/\\d+(?=/|$)", "/{id}"));
            step.put(e.method().toLowerCase(Locale.ROOT), pathWithVariables(path, e.url().getRawQuery(), kept, i));
            if (e.body() != null && !e.body().isEmpty()) {
                if (e.bodyType().contains("x-www-form-urlencoded")) {
                    Map<String, Object> form = new LinkedHashMap<>();
                    for (String[] field : formFields(e.body())) {
                        form.put(field[0], sent(field[0], field[1], kept, i));
                    }
                    step.put("form", form);
                } else {
                    step.put("body", escape(e.body()));
                    if (!e.bodyType().isEmpty()) {
                        step.put("contentType", e.bodyType());
                    }
                }
            }
            Map<String, Object> headers = new LinkedHashMap<>();
            for (String[] h : e.headers()) {
                String lower = h[0].toLowerCase(Locale.ROOT);
                // the application's own headers; the browser's (agent, caching, fetch metadata) and the driver's are not
                if (lower.startsWith("x-") || lower.equals("authorization")) {
                    headers.put(h[0], sent(h[0], h[1], kept, i));
                }
            }
            if (!headers.isEmpty()) {
                step.put("headers", headers);
            }
            Map<String, Object> check = new LinkedHashMap<>();
            check.put("status", e.status());
            String title = title(e);
            if (title != null) {
                check.put("contains", escape("<title>" + title + "</title>"));
            }
            step.put("check", check);
            if (thinkTimes && i + 1 < kept.size()) {
                long pause = kept.get(i + 1).startMillis() - (e.startMillis() + e.timeMillis());
                if (pause >= MIN_THINK_MS) {
                    step.put("think", Math.min(pause, Duration.ofMinutes(10).toMillis()) + "ms");
                }
            }
            return step;
        }

        /** The extraction each answer gives, added to its step once the later request that needs it is seen. */
        private final Map<Integer, Map<String, Object>> extractions = new HashMap<>();

        /**
         * What a request sends for one value: a variable when an earlier answer of the recording gave it (its
         * extraction put on that step), the value itself otherwise.
         */
        private String sent(String field, String value, List<Entry> kept, int i) {
            String variable = variableFor(field, value, kept, i);
            return variable != null ? "${" + variable + "}" : escape(value);
        }

        /** The variable an earlier answer gives {@code value} in, or null. */
        private String variableFor(String field, String value, List<Entry> kept, int i) {
            if (value.length() < MIN_VALUE_LENGTH) {
                return null;
            }
            Binding b = byValue.get(value);
            if (b == null) {
                b = find(field, value, kept, i);
                if (b == null) {
                    return null;
                }
                byValue.put(value, b);
            }
            return b.variable();
        }

        private Binding find(String field, String value, List<Entry> kept, int i) {
            for (int j = i - 1; j >= 0; j--) {
                Entry answer = kept.get(j);
                Map<String, Object> how = howToExtract(field, value, answer);
                if (how != null) {
                    String variable = variableName(field);
                    Map<String, Object> extract = stepsExtractions(j);
                    extract.put(variable, how);
                    return new Binding(variable, j, how);
                }
            }
            return null;
        }

        private Map<String, Object> stepsExtractions(int j) {
            return extractions.computeIfAbsent(j, k -> new LinkedHashMap<>());
        }

        /** How to take {@code value} from an answer: a form field's value, or the text between what surrounds it. */
        private Map<String, Object> howToExtract(String field, String value, Entry answer) {
            String text = answer.responseText();
            if (text == null || text.isEmpty()) {
                return null;
            }
            String html = htmlEscape(value);
            if (answer.responseType().contains("html")) {
                Matcher input = Pattern.compile("<input[^>]*\\bname=[\"']?" + Pattern.quote(field) + "[\"']?[^>]*>",
                        Pattern.CASE_INSENSITIVE).matcher(text);
                while (input.find()) {
                    if (input.group().contains("value=\"" + html + "\"") || input.group().contains("value='" + html + "'")) {
                        Map<String, Object> how = new LinkedHashMap<>();
                        how.put("css", "input[name=" + field + "]");
                        how.put("attr", "value");
                        return how;
                    }
                }
            }
            for (String written : html.equals(value) ? List.of(value) : List.of(value, html)) {
                // only where the page gives it as a value (an attribute, a link's part, an element's text), so that a
                // value the person typed is not matched to a word that happens to be in a page
                for (int at = text.indexOf(written); at >= 0; at = text.indexOf(written, at + 1)) {
                    int end = at + written.length();
                    if (at == 0 || end >= text.length() || LEFT.indexOf(text.charAt(at - 1)) < 0
                            || RIGHT.indexOf(text.charAt(end)) < 0) {
                        continue;
                    }
                    String after = String.valueOf(text.charAt(end));
                    // the shortest left context that finds this value first
                    for (int left = 4; left <= 48 && left <= at; left += 4) {
                        String before = text.substring(at - left, at);
                        if (before.indexOf('\n') >= 0) {
                            break;
                        }
                        String regex = regexLiteral(before) + "([^" + regexLiteral(after) + "\\s]+)" + regexLiteral(after);
                        Matcher m = Pattern.compile(regex).matcher(text);
                        if (m.find() && m.group(1).equals(written)) {
                            Map<String, Object> how = new LinkedHashMap<>();
                            how.put("regex", regex);
                            return how;
                        }
                    }
                }
            }
            return null;
        }

        private String variableName(String field) {
            String base = field.replaceAll("[^A-Za-z0-9_-]", "_").replaceAll("^[^A-Za-z_]+", "");
            if (base.isEmpty() || Scenario.BUILT_IN.contains(base)) {
                base = "value";
            }
            int n = names.merge(base, 1, Integer::sum);
            return n == 1 ? base : base + n;
        }

        /** The path and query, each value an earlier answer gave a variable. */
        private String pathWithVariables(String path, String query, List<Entry> kept, int i) {
            StringBuilder sb = new StringBuilder();
            String[] segments = path.split("/", -1);
            for (int s = 0; s < segments.length; s++) {
                if (s > 0) {
                    sb.append('/');
                }
                String seg = segments[s];
                boolean looksLikeId = seg.matches("\\d{2,}") || seg.matches("[A-Za-z0-9_-]{16,}") && seg.matches(".*\\d.*");
                String variable = looksLikeId ? variableFor(s > 1 && !segments[s - 1].isEmpty() ? segments[s - 1] + "_id"
                        : "id", decode(seg), kept, i) : null;
                sb.append(variable != null ? "${" + variable + "}" : escape(seg));
            }
            if (query != null && !query.isEmpty()) {
                sb.append('?');
                String[] pairs = query.split("&");
                for (int p = 0; p < pairs.length; p++) {
                    if (p > 0) {
                        sb.append('&');
                    }
                    int eq = pairs[p].indexOf('=');
                    if (eq < 0) {
                        sb.append(escape(pairs[p]));
                        continue;
                    }
                    String key = pairs[p].substring(0, eq);
                    String raw = pairs[p].substring(eq + 1);
                    String variable = variableFor(decode(key), decode(raw), kept, i);
                    sb.append(escape(key)).append('=').append(variable != null ? "${" + variable + "}" : escape(raw));
                }
            }
            return sb.toString();
        }

        private static boolean isStatic(Entry e) {
            String type = e.responseType();
            if (type.startsWith("image/") || type.startsWith("font/") || type.startsWith("video/") || type.startsWith("audio/")
                    || type.equals("text/css") || type.contains("javascript")) {
                return true;
            }
            String p = e.url().getRawPath() == null ? "" : e.url().getRawPath().toLowerCase(Locale.ROOT);
            int dot = p.lastIndexOf('.');
            return dot > p.lastIndexOf('/') && STATIC_EXTENSIONS.contains(p.substring(dot + 1));
        }

        private Entry entry(JsonNode e, int index) {
            JsonNode req = e.path("request");
            JsonNode res = e.path("response");
            String url = req.path("url").asText("");
            String method = req.path("method").asText("");
            if (!url.startsWith("http://") && !url.startsWith("https://")) {
                if (!url.isEmpty()) {
                    leftOut.add(method + " " + url.substring(0, Math.min(60, url.length())) + " (not http)");
                }
                return null;
            }
            if (!method.matches("GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS")) {
                leftOut.add(method + " " + url + " (method)");
                return null;
            }
            int status = res.path("status").asInt(0);
            if (status == 0) {
                leftOut.add(method + " " + url + " (no answer: aborted or blocked)");
                return null;
            }
            URI uri;
            try {
                uri = URI.create(url.replace(" ", "%20"));
            } catch (IllegalArgumentException bad) {
                leftOut.add(method + " " + url + " (not a URL)");
                return null;
            }
            long start;
            try {
                start = OffsetDateTime.parse(e.path("startedDateTime").asText()).toInstant().toEpochMilli();
            } catch (RuntimeException bad) {
                start = 0;
            }
            JsonNode post = req.path("postData");
            String bodyType = post.path("mimeType").asText("").toLowerCase(Locale.ROOT);
            String body = post.has("text") ? post.path("text").asText() : null;
            if (body == null && post.path("params").isArray() && post.path("params").size() > 0) {
                StringBuilder sb = new StringBuilder();
                for (JsonNode p : post.path("params")) {
                    if (!sb.isEmpty()) {
                        sb.append('&');
                    }
                    sb.append(encode(p.path("name").asText())).append('=').append(encode(p.path("value").asText()));
                }
                body = sb.toString();
            }
            JsonNode content = res.path("content");
            String text = content.path("text").asText(null);
            if (text != null && "base64".equals(content.path("encoding").asText(""))) {
                text = null; // a binary answer: nothing to extract from
            }
            return new Entry(index, method, uri, pairs(req.path("headers")), bodyType, body, status,
                    content.path("mimeType").asText("").toLowerCase(Locale.ROOT), text, pairs(res.path("headers")), start,
                    (long) Math.max(0, e.path("time").asDouble(0)));
        }
    }

    static List<String[]> pairs(JsonNode list) {
        List<String[]> pairs = new ArrayList<>();
        for (JsonNode h : list) {
            pairs.add(new String[] {h.path("name").asText(), h.path("value").asText()});
        }
        return pairs;
    }

    private static List<String[]> formFields(String body) {
        List<String[]> fields = new ArrayList<>();
        for (String pair : body.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            fields.add(eq < 0 ? new String[] {decode(pair), ""} : new String[] {decode(pair.substring(0, eq)), decode(pair.substring(eq + 1))});
        }
        return fields;
    }

    private static String title(Entry e) {
        if (e.responseText() == null || !e.responseType().contains("html")) {
            return null;
        }
        Matcher m = Pattern.compile("<title>([^<]{1,120})</title>", Pattern.CASE_INSENSITIVE).matcher(e.responseText());
        return m.find() ? m.group(1) : null;
    }

    private static String decode(String s) {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return s;
        }
    }

    private static String encode(String s) {
        return new String(perflab.core.traffic.UrlEncoding.formValue(s), StandardCharsets.US_ASCII);
    }

    /** A recorded text as a scenario's text: a literal ${ is written $${. */
    private static String escape(String s) {
        return s.replace("${", "$${");
    }

    /** What may stand before a value a page gives: a quote, a tag's end, an '=' or a path's '/'. */
    private static final String LEFT = "\"'>=/";
    /** And after it: a quote, a tag, or the next part of a URL. */
    private static final String RIGHT = "\"'<&/?#";

    /** {@code s} matched literally, each character a regular expression gives a meaning escaped. */
    private static String regexLiteral(String s) {
        StringBuilder sb = new StringBuilder();
        for (char c : s.toCharArray()) {
            if ("\\.[]{}()*+?^$|-".indexOf(c) >= 0) {
                sb.append('\\');
            }
            sb.append(c);
        }
        return sb.toString();
    }

    private static String htmlEscape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
