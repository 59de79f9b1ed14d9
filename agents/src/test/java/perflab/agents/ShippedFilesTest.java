package perflab.agents;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import perflab.core.workload.Workloads;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A scenario file travels to the agents with the files it reads, and is read there from the agent's own copy. */
class ShippedFilesTest {
    @TempDir
    Path controller;
    @TempDir
    Path agent;

    @Test
    void aScenarioAndTheFilesItReadsAreReadAgainFromTheAgentsCopy() throws Exception {
        Path dir = Files.createDirectories(controller.resolve("load"));
        Files.createDirectories(controller.resolve("data"));
        Files.writeString(controller.resolve("data/users.csv"), "user\nann\nbob\n");
        Files.writeString(dir.resolve("hello.xml"), "<hello>${users.user}</hello>");
        Path scenario = dir.resolve("shop.yaml");
        Files.writeString(scenario, """
                scenario: shop
                variables: {users: {csv: ../data/users.csv}}
                steps:
                  - {post: /hello, bodyFile: hello.xml, contentType: text/xml}
                """);
        Map<String, String> files = ShippedFiles.of(scenario.toString());
        assertEquals(java.util.Set.of("shop.yaml", "../data/users.csv", "hello.xml"), files.keySet());
        assertEquals(Map.of(), ShippedFiles.of("soap-echo"), "a workload written in Java sends nothing");

        Path copy = ShippedFiles.unpack(files, scenario.toString(), agent);
        assertTrue(copy.startsWith(agent), copy.toString());
        assertEquals("shop.yaml", copy.getFileName().toString());
        assertEquals(kinds(scenario.toString()), kinds(copy.toString()), "the copy is read as the original");
        assertEquals("user\nann\nbob\n", Files.readString(copy.getParent().resolve("../data/users.csv").normalize()));

        ShippedFiles.delete(agent);
        assertFalse(Files.exists(agent));
    }

    private static java.util.List<String> kinds(String workload) {
        return Workloads.named(workload).traffic(new perflab.core.workload.TrafficOptions("mix",
                java.net.URI.create("http://127.0.0.1:1"), 1L, Map.of())).requestKinds();
    }

    @Test
    void aPathOutOfTheAgentsFolderIsRefused(@TempDir Path root) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ShippedFiles.unpack(
                Map.of("x.yaml", "scenario: x", "d/../../../../etc/passwd", "root"), "x.yaml", root));
        assertTrue(e.getMessage().startsWith("the controller sent a file outside the agent's folder"), e.getMessage());
    }
}
