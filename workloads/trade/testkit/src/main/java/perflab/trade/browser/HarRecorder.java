package perflab.trade.browser;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * What a {@link HeadlessChromium} started with {@code recordNetwork} sent and received, written as a HAR 1.2 file, as
 * Chromium's developer tools save one (Network, "Save all as HAR"): an entry per request, a redirect's answer its own
 * entry, each answer's text fetched from the browser with DevTools' Network.getResponseBody. {@link #collect} after each
 * page, while the browser still holds the bodies of that page's requests.
 */
public final class HarRecorder {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final ChromeDriver driver;
    private final Map<String, ObjectNode> pending = new HashMap<>();
    private final List<ObjectNode> entries = new ArrayList<>();

    public HarRecorder(HeadlessChromium browser) {
        this.driver = browser.driver;
    }

    /** Reads the browser's Network events since the last call; requests done are entries from now on. */
    public void collect() throws IOException {
        for (LogEntry log : driver.manage().logs().get(LogType.PERFORMANCE)) {
            JsonNode message = JSON.readTree(log.getMessage()).path("message");
            JsonNode p = message.path("params");
            String id = p.path("requestId").asText();
            switch (message.path("method").asText()) {
                case "Network.requestWillBeSent" -> {
                    ObjectNode earlier = pending.remove(id);
                    if (earlier != null && p.has("redirectResponse")) {
                        answer(earlier, p.path("redirectResponse"));
                        finish(earlier, p.path("timestamp").asDouble(), "");
                    }
                    pending.put(id, request(p));
                }
                case "Network.responseReceived" -> {
                    ObjectNode e = pending.get(id);
                    if (e != null) {
                        answer(e, p.path("response"));
                    }
                }
                case "Network.loadingFinished" -> {
                    ObjectNode e = pending.remove(id);
                    if (e != null) {
                        finish(e, p.path("timestamp").asDouble(), body(id));
                    }
                }
                case "Network.loadingFailed" -> pending.remove(id);
                default -> {
                }
            }
        }
    }

    /** Writes the entries so far as a HAR file. */
    public void write(Path file) throws IOException {
        ObjectNode har = JSON.createObjectNode();
        ObjectNode log = har.putObject("log");
        log.put("version", "1.2");
        log.putObject("creator").put("name", "perflab HarRecorder").put("version", "1");
        ArrayNode list = log.putArray("entries");
        entries.stream().sorted(Comparator.comparing(e -> e.path("startedDateTime").asText())).forEach(list::add);
        JSON.writerWithDefaultPrettyPrinter().writeValue(file.toFile(), har);
    }

    public int size() {
        return entries.size();
    }

    private ObjectNode request(JsonNode p) {
        JsonNode r = p.path("request");
        ObjectNode e = JSON.createObjectNode();
        double wall = p.path("wallTime").asDouble();
        e.put("startedDateTime", Instant.ofEpochMilli((long) (wall * 1000)).toString());
        e.put("perflabStart", p.path("timestamp").asDouble());
        ObjectNode req = e.putObject("request");
        req.put("method", r.path("method").asText());
        req.put("url", r.path("url").asText());
        req.put("httpVersion", "HTTP/1.1");
        req.set("headers", headers(r.path("headers")));
        req.putArray("queryString");
        req.putArray("cookies");
        req.put("headersSize", -1);
        String post = r.has("postData") ? r.path("postData").asText() : postDataEntries(r.path("postDataEntries"));
        req.put("bodySize", post == null ? 0 : post.length());
        if (post != null) {
            String type = "";
            for (Iterator<Map.Entry<String, JsonNode>> h = r.path("headers").fields(); h.hasNext(); ) {
                Map.Entry<String, JsonNode> header = h.next();
                if (header.getKey().equalsIgnoreCase("Content-Type")) {
                    type = header.getValue().asText();
                }
            }
            req.putObject("postData").put("mimeType", type).put("text", post);
        }
        return e;
    }

    private static String postDataEntries(JsonNode parts) {
        if (!parts.isArray() || parts.isEmpty()) {
            return null;
        }
        StringBuilder sb = new StringBuilder();
        for (JsonNode part : parts) {
            sb.append(new String(Base64.getDecoder().decode(part.path("bytes").asText()), StandardCharsets.UTF_8));
        }
        return sb.toString();
    }

    private static void answer(ObjectNode e, JsonNode r) {
        ObjectNode res = e.putObject("response");
        res.put("status", r.path("status").asInt());
        res.put("statusText", r.path("statusText").asText(""));
        res.put("httpVersion", "HTTP/1.1");
        res.set("headers", headers(r.path("headers")));
        res.putArray("cookies");
        res.putObject("content").put("size", 0).put("mimeType", r.path("mimeType").asText(""));
        res.put("redirectURL", "");
        res.put("headersSize", -1);
        res.put("bodySize", -1);
    }

    private void finish(ObjectNode e, double timestamp, String body) {
        if (!e.has("response")) {
            return; // no answer seen (a request the browser cancelled)
        }
        double ms = Math.max(0, (timestamp - e.path("perflabStart").asDouble()) * 1000);
        e.remove("perflabStart");
        e.put("time", ms);
        ((ObjectNode) e.path("response").path("content")).put("size", body.length()).put("text", body);
        e.putObject("cache");
        e.putObject("timings").put("send", 0).put("wait", ms).put("receive", 0);
        entries.add(e);
    }

    private String body(String id) {
        try {
            Map<String, Object> r = driver.executeCdpCommand("Network.getResponseBody", Map.of("requestId", id));
            String body = String.valueOf(r.getOrDefault("body", ""));
            return Boolean.TRUE.equals(r.get("base64Encoded"))
                    ? new String(Base64.getDecoder().decode(body), StandardCharsets.UTF_8) : body;
        } catch (WebDriverException gone) {
            return ""; // an answer with no body (a redirect, a 204), or one the browser no longer holds
        }
    }

    private static ArrayNode headers(JsonNode object) {
        ArrayNode list = JSON.createArrayNode();
        object.fields().forEachRemaining(h -> {
            for (String v : h.getValue().asText().split("\n")) { // DevTools joins repeated headers with a line break
                list.addObject().put("name", h.getKey()).put("value", v);
            }
        });
        return list;
    }
}
