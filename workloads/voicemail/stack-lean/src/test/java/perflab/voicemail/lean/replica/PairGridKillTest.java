package perflab.voicemail.lean.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The replication test of issue 14: a session written by one JVM is read on its partner after that JVM is killed
 * with SIGKILL (no goodbye to the grid), and the partner, alone, goes on writing.
 */
class PairGridKillTest {

    @Test
    void aReplicaOutlivesTheKillOfTheJvmThatWroteIt() throws Exception {
        int mine = FreePorts.loopback();
        int theirs = FreePorts.loopback();
        try (PairGrid survivor = PairGrid.join("kill-test", "survivor", mine, theirs)) {
            Path javaBin = Path.of(System.getProperty("java.home"), "bin", "java");
            List<String> command = new ArrayList<>(List.of(javaBin.toString(), "-Xmx256m", "-cp",
                    System.getProperty("java.class.path"), ReplicaWriter.class.getName(), "kill-test",
                    Integer.toString(theirs), Integer.toString(mine), "u0000042"));
            Process writer = new ProcessBuilder(command).redirectErrorStream(true).start();
            try {
                CompletableFuture<String> written = new CompletableFuture<>();
                List<String> output = java.util.Collections.synchronizedList(new ArrayList<>());
                Thread reader = new Thread(() -> {
                    try (BufferedReader in = new BufferedReader(new InputStreamReader(writer.getInputStream(),
                            StandardCharsets.UTF_8))) {
                        String line;
                        while ((line = in.readLine()) != null) {
                            output.add(line);
                            if (line.equals("WRITTEN")) {
                                written.complete(line);
                            }
                        }
                    } catch (java.io.IOException e) {
                        // the writer was killed
                    } finally {
                        written.complete(null);
                    }
                });
                reader.setDaemon(true);
                reader.start();
                assertEquals("WRITTEN", written.get(90, TimeUnit.SECONDS), "the writer's output: " + output);
                byte[] copy = awaitReplica(survivor, "u0000042", 10_000);
                assertNotNull(copy, "the replica reached the partner");
                // on a busy machine the writer may have found no one within its join timeout and started a grid of
                // its own, the two merging later: the copy may then be at the survivor before the pair is whole
                long whole = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (!survivor.paired() && System.nanoTime() < whole) {
                    Thread.sleep(50);
                }
                assertTrue(survivor.paired(), "the pair became whole");

                writer.destroyForcibly(); // SIGKILL: the writer leaves no word for the grid
                assertTrue(writer.waitFor(10, TimeUnit.SECONDS));
                assertEquals(137, writer.exitValue(), "killed by SIGKILL");

                UserReplica read = UserReplica.fromBytes(survivor.get("u0000042"));
                assertEquals("CONNECTED", read.state());
                assertEquals("node0writer", read.webSession());
                // heartbeats (FD_ALL3: 8 s) and the check of the suspect find the writer gone; the pair is one
                long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (survivor.members() > 1 && System.nanoTime() < end) {
                    Thread.sleep(100);
                }
                assertEquals(1, survivor.members(), "the survivor's view after the kill");
                survivor.put("u0000043", UserReplica.page("u0000043", "node0b").toBytes());
                assertEquals(UserReplica.PAGE, UserReplica.fromBytes(survivor.get("u0000043")).state());
                assertEquals("CONNECTED", UserReplica.fromBytes(survivor.get("u0000042")).state());
            } finally {
                writer.destroyForcibly();
            }
        }
    }

    private static byte[] awaitReplica(PairGrid grid, String user, long millis) throws InterruptedException {
        long end = System.nanoTime() + millis * 1_000_000;
        byte[] value = grid.get(user);
        while (value == null && System.nanoTime() < end) {
            Thread.sleep(20);
            value = grid.get(user);
        }
        return value;
    }
}
