package perflab.history;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import perflab.core.result.Json;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What makes two runs comparable, as a short hash: a series is the runs of one key. It is the run's configuration
 * (workload, stack, operation, load, the SUT's settings, heap, collector, CPUs, the server file's contents) and the
 * machine and JDK it ran on, without what differs between repeats of one configuration (the directory, the seed, a
 * label, where it was recorded). Keys are stable across perflab versions only as long as run.json's configuration
 * keeps its shape; a new field with a default changes them (documented in docs/history.md).
 */
public final class ConfigurationKey {
    /** Fields of run.json's {@code config} that are not the configuration: output, console, recording, seed. */
    private static final List<String> NOT_CONFIGURATION = List.of("out", "quiet", "recording");

    private ConfigurationKey() {
    }

    /** The key of the run that {@code manifest} (run.json) describes. */
    public static String of(JsonNode manifest) {
        ObjectNode what = Json.MAPPER.createObjectNode();
        what.set("config", configuration(manifest));
        JsonNode env = manifest.path("environment");
        what.put("cores", env.path("cores").asInt());
        what.put("cpuModel", env.path("cpuModel").asText(""));
        JsonNode jvm = manifest.path("effectiveJvm");
        what.put("jdk", jvm.path("javaVersion").asText(""));
        what.put("collector", jvm.path("collector").asText(""));
        what.put("server", manifest.path("server").path("sha256").asText(""));
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest(Json.MAPPER.writeValueAsString(sorted(what)).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException | com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** run.json's configuration without what repeats of it differ in. */
    static ObjectNode configuration(JsonNode manifest) {
        JsonNode config = manifest.path("config");
        ObjectNode copy = config.isObject() ? ((ObjectNode) config).deepCopy() : Json.MAPPER.createObjectNode();
        copy.remove(NOT_CONFIGURATION);
        if (copy.path("load").isObject()) {
            ((ObjectNode) copy.get("load")).remove("seed");
        }
        return copy;
    }

    /** A tree with every object's fields in name order, so that the hash does not depend on how it was written. */
    private static JsonNode sorted(JsonNode node) {
        if (node.isObject()) {
            Map<String, JsonNode> fields = new TreeMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (!e.getValue().isNull()) {
                    fields.put(e.getKey(), sorted(e.getValue()));
                }
            }
            ObjectNode out = Json.MAPPER.createObjectNode();
            fields.forEach(out::set);
            return out;
        }
        if (node.isArray()) {
            ArrayNode out = Json.MAPPER.createArrayNode();
            node.forEach(n -> out.add(sorted(n)));
            return out;
        }
        return node;
    }
}
