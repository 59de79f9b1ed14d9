package perflab.history;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import perflab.core.result.Json;

import java.io.IOException;
import java.io.InputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

class ConfigurationKeyTest {
    static ObjectNode manifest(String run) throws IOException {
        try (InputStream in = ConfigurationKeyTest.class.getResourceAsStream("/runs/" + run + "/run.json")) {
            return (ObjectNode) Json.MAPPER.readTree(in);
        }
    }

    @Test
    void repeatsOfOneConfigurationShareTheirKey() throws IOException {
        ObjectNode a = manifest("soap-echo");
        ObjectNode b = a.deepCopy();
        ObjectNode config = (ObjectNode) b.get("config");
        config.put("out", "/elsewhere");
        config.put("quiet", true);
        ((ObjectNode) config.get("load")).put("seed", 42);
        config.putObject("recording").put("label", "v2").put("history", "/tmp/h.sqlite");
        b.put("startedAt", "2030-01-01T00:00:00Z");
        b.put("runDirectory", "/other");
        assertEquals(ConfigurationKey.of(a), ConfigurationKey.of(b));
    }

    @Test
    void whatChangesTheFiguresChangesTheKey() throws IOException {
        ObjectNode a = manifest("soap-echo");
        ObjectNode clients = a.deepCopy();
        ((ObjectNode) clients.get("config").get("load")).put("clients", 17);
        ObjectNode jdk = a.deepCopy();
        ((ObjectNode) jdk.get("effectiveJvm")).put("javaVersion", "25");
        ObjectNode cores = a.deepCopy();
        ((ObjectNode) cores.get("environment")).put("cores", 4);
        ObjectNode setting = a.deepCopy();
        ((ObjectNode) setting.get("config").get("sut").get("settings")).put("server-threads", "8");
        for (ObjectNode other : new ObjectNode[]{clients, jdk, cores, setting}) {
            assertNotEquals(ConfigurationKey.of(a), ConfigurationKey.of(other));
        }
    }

    @Test
    void theOrderOfFieldsDoesNotMatter() throws IOException {
        ObjectNode a = manifest("soap-echo");
        ObjectNode reordered = Json.MAPPER.createObjectNode();
        java.util.List<String> names = new java.util.ArrayList<>();
        a.fieldNames().forEachRemaining(names::add);
        java.util.Collections.reverse(names);
        names.forEach(n -> reordered.set(n, a.get(n)));
        assertEquals(16, ConfigurationKey.of(a).length());
        assertEquals(ConfigurationKey.of(a), ConfigurationKey.of(reordered));
    }
}
