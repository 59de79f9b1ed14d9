package perflab.voicemail.lean.replica;

import perflab.core.process.LocalSockets;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import perflab.testsupport.Poll;

/**
 * The replication test of issue 14: a session written by one JVM is read on its partner after that JVM is killed
 * with SIGKILL (no goodbye to the grid), and the partner, alone, goes on writing.
 */
class PairGridKillTest {

    @Test
    void aReplicaOutlivesTheKillOfTheJvmThatWroteIt() throws Exception {
        int[] ports = LocalSockets.freePorts(2);
        int mine = ports[0];
        int theirs = ports[1];
        try (PairGrid survivor = PairGrid.join("kill-test", "survivor", mine, theirs)) {
            Writer started = Writer.start("kill-test", theirs, mine);
            Process writer = started.process;
            try {
                started.awaitPaired(survivor);
                writer.destroyForcibly(); // SIGKILL: the writer leaves no word for the grid
                assertTrue(writer.waitFor(10, TimeUnit.SECONDS));
                assertEquals(137, writer.exitValue(), "killed by SIGKILL");

                UserReplica read = UserReplica.fromBytes(survivor.get("u0000042"));
                assertEquals("CONNECTED", read.state());
                assertEquals("node0writer", read.webSession());
                // Copies the survivor writes before its grid has dropped the writer. The writer's users' copies keep
                // their keys, which the writer owns (it wrote them first): those writes go to the dead primary owner and
                // are lost, here too; once the topology has dropped it, they are written again. The survivor's own new
                // users get keys the survivor owns: kept from the first write.
                List<String> writers = writerPages();
                List<String> own = new ArrayList<>();
                for (int i = 200; i < 220; i++) {
                    own.add("u0000" + i);
                }
                java.util.concurrent.CountDownLatch rewritten = new java.util.concurrent.CountDownLatch(1);
                java.util.concurrent.atomic.AtomicLong lostBefore = new java.util.concurrent.atomic.AtomicLong(-1);
                java.util.concurrent.atomic.AtomicLong ownLostBefore = new java.util.concurrent.atomic.AtomicLong(-1);
                java.util.concurrent.atomic.AtomicReference<String> ownLostSeen = new java.util.concurrent.atomic.AtomicReference<>();
                // the own users whose write had returned: the topology can drop the writer while the survivor is
                // still writing them (slow CI), and one not yet written is not one lost
                java.util.Set<String> ownWritten = java.util.concurrent.ConcurrentHashMap.newKeySet();
                // the same for the writer's users: one written after the drop goes to the survivor and is kept (a
                // fresh-clone CI saw 19 of 20 lost so)
                java.util.Set<String> writersWritten = java.util.concurrent.ConcurrentHashMap.newKeySet();
                // a new user's key is one the survivor owns when one of its salts is (CopyKeys); after a merge on a
                // busy machine the owners may be dealt differently and a user's salts can all be the writer's: its
                // write then goes through the dead writer like the writer's users' (a busy-CPU suite saw 1 of 20)
                java.util.Set<String> ownNotOwned = java.util.concurrent.ConcurrentHashMap.newKeySet();
                java.util.concurrent.atomic.AtomicLong writtenBefore = new java.util.concurrent.atomic.AtomicLong(-1);
                survivor.onPartnerLost(() -> {
                    List<String> written = List.copyOf(writersWritten);
                    writtenBefore.set(written.size());
                    lostBefore.set(written.stream().filter(u -> !webSession(survivor, u).equals("node0first")).count());
                    java.util.Map<String, String> ownLost = new java.util.TreeMap<>();
                    ownWritten.forEach(u -> {
                        String seen = webSession(survivor, u);
                        if (!seen.equals("node0first")) {
                            ownLost.put(u, seen.isEmpty() ? "(no copy)" : seen);
                        }
                    });
                    ownLostSeen.set(ownLost.toString()); // what a lost one read, for the failure's message
                    ownLostBefore.set(ownLost.size());
                    // as the product does: every user served since the kill is written again
                    writers.forEach(u -> survivor.put(u, UserReplica.page(u, "node0again").toBytes()));
                    ownNotOwned.forEach(u -> survivor.put(u, UserReplica.page(u, "node0again").toBytes()));
                    rewritten.countDown();
                });
                writers.forEach(u -> {
                    // counted only when the pair was whole from before the write to after it: a write the view change
                    // overlapped may already go to the survivor and be kept (a fresh-clone CI at f95780c saw 19 of 20
                    // lost, the one kept written as the writer was dropped and counted before the listener ran)
                    boolean pairBefore = survivor.members() == 2;
                    survivor.put(u, UserReplica.page(u, "node0first").toBytes());
                    if (pairBefore && survivor.members() == 2) {
                        writersWritten.add(u);
                    }
                });
                own.forEach(u -> {
                    boolean owned = survivor.copyKeyOwnedHere(u); // asked first: the owner can only become the survivor
                    survivor.put(u, UserReplica.page(u, "node0first").toBytes());
                    (owned ? ownWritten : ownNotOwned).add(u);
                });
                assertTrue(ownNotOwned.size() <= 2, () -> "the survivor owns a key for nearly every new user: "
                        + ownNotOwned);
                assertTrue(rewritten.await(30, TimeUnit.SECONDS), "told once the topology dropped the writer");
                assertTrue(writtenBefore.get() > 0, "the topology dropped the writer before any write through it");
                // Writes through the dead primary owner are lost, which is why the product writes them again; but not
                // always every one: two fresh-clone CIs at f95780c and 50a96da each kept 1 of 20 written while the pair
                // was whole (a key whose primary was already the survivor's). A kept write loses nothing: what must
                // hold is that none is lost for good, which the polls below check once they are written again.
                assertTrue(lostBefore.get() >= 0 && lostBefore.get() <= writtenBefore.get(),
                        "lost " + lostBefore.get() + " of " + writtenBefore.get() + " written through the dead owner");
                assertEquals(0, ownLostBefore.get(), () -> "writes under keys the survivor owns were kept; read instead: "
                        + ownLostSeen.get() + " of " + own.size() + " written then");
                for (String u : ownWritten) {
                    assertEquals("node0first", webSession(survivor, u), u + ": written once under the survivor's key, kept");
                }
                for (String u : writers) {
                    Poll.until(u + " written again after the topology change", Duration.ofSeconds(30),
                            () -> webSession(survivor, u), "node0again"::equals);
                }
                for (String u : ownNotOwned) { // written again, or first written after the change (then kept)
                    Poll.until(u + " held after the topology change", Duration.ofSeconds(30),
                            () -> webSession(survivor, u), seen -> !seen.isEmpty());
                }
                assertEquals(1 + writers.size() + own.size(), survivor.held(), "one copy a user, whoever wrote it");
                // heartbeats (FD_ALL3: 8 s) and the check of the suspect find the writer gone; the pair is one
                Poll.until("the survivor's view to drop the killed writer", Duration.ofSeconds(60), survivor::members,
                        n -> n == 1);
                survivor.put("u0000043", UserReplica.page("u0000043", "node0b").toBytes());
                assertEquals(UserReplica.PAGE, UserReplica.fromBytes(survivor.get("u0000043")).state());
                assertEquals("CONNECTED", UserReplica.fromBytes(survivor.get("u0000042")).state());
            } finally {
                writer.destroyForcibly();
            }
        }
    }

    /** The users on their page whose copies the {@link ReplicaWriter} writes before its call's. */
    private static List<String> writerPages() {
        List<String> users = new ArrayList<>();
        for (int i = 100; i < 120; i++) {
            users.add("u0000" + i);
        }
        return users;
    }

    /** The web session {@code user}'s copy held at {@code grid} names; "" without a copy. */
    private static String webSession(PairGrid grid, String user) {
        byte[] copy = grid.get(user);
        return copy == null ? "" : UserReplica.fromBytes(copy).webSession();
    }

    /** A {@link ReplicaWriter} in a JVM of its own, and the lines it said. */
    private record Writer(Process process, List<String> output, CompletableFuture<Void> started,
                          CompletableFuture<Void> written) {
        static Writer start(String pair, int port, int partnerPort) throws java.io.IOException {
            Path javaBin = Path.of(System.getProperty("java.home"), "bin", "java");
            List<String> command = new ArrayList<>(List.of(javaBin.toString(), "-Xmx256m", "-cp",
                    System.getProperty("java.class.path"), ReplicaWriter.class.getName(), pair,
                    Integer.toString(port), Integer.toString(partnerPort), "u0000042"));
            command.addAll(writerPages());
            Writer w = new Writer(new ProcessBuilder(command).redirectErrorStream(true).start(),
                    java.util.Collections.synchronizedList(new ArrayList<>()), new CompletableFuture<>(),
                    new CompletableFuture<>());
            Thread reader = new Thread(() -> {
                try (BufferedReader in = new BufferedReader(new InputStreamReader(w.process.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = in.readLine()) != null) {
                        w.output.add(line);
                        if (line.equals("STARTED")) {
                            w.started.complete(null);
                        } else if (line.equals("WRITTEN")) {
                            w.written.complete(null);
                        }
                    }
                } catch (java.io.IOException e) {
                    // the writer was killed
                } finally {
                    w.started.completeExceptionally(new IllegalStateException("the writer ended: " + w.output));
                    w.written.completeExceptionally(new IllegalStateException("the writer ended: " + w.output));
                }
            });
            reader.setDaemon(true);
            reader.start();
            return w;
        }

        /** Waits until the writer wrote u0000042's replica, the copy reached {@code survivor}, the pair is whole. */
        void awaitPaired(PairGrid survivor) throws Exception {
            written.get(90, TimeUnit.SECONDS);
            awaitReplica(survivor, "u0000042");
            for (String user : writerPages()) {
                awaitReplica(survivor, user);
            }
            // on a busy machine the writer may have found no one within its join timeout and started a grid of
            // its own, the two merging later: the copy may then be at the survivor before the pair is whole
            Poll.until("the pair to become whole", Duration.ofSeconds(60), survivor::paired);
        }
    }

    /**
     * Issue 14 item 5: the killed member, the pair's coordinator (it started first, as sut-0 does), is started again
     * on its port at once, while the survivor's view still holds its former self (FD_ALL3 waits 8 s): the survivor's
     * discovery answer names a dead coordinator. It joins the survivor all the same, not a grid of its own, and
     * receives the copies the survivor holds as it joins.
     */
    @Test
    void aMemberStartedAgainBeforeItsDeathIsSeenRejoinsItsPartnerWithTheCopies() throws Exception {
        int[] ports = LocalSockets.freePorts(2);
        int mine = ports[0];
        int theirs = ports[1];
        Writer writer = Writer.start("rejoin-test", theirs, mine);
        try {
            writer.started.get(90, TimeUnit.SECONDS);
            try (PairGrid survivor = PairGrid.join("rejoin-test", "survivor", mine, theirs)) {
                writer.awaitPaired(survivor);
                writer.process.destroyForcibly();
                assertTrue(writer.process.waitFor(10, TimeUnit.SECONDS));
                assertEquals(2, survivor.members(), "the former self is still in the survivor's view");
                try (PairGrid again = PairGrid.join("rejoin-test", "again", theirs, mine)) {
                    assertEquals(2, again.members(), "paired with the survivor, not alone");
                    assertTrue(again.heldAtJoin() >= 1, "the survivor's copies came at the join: " + again.heldAtJoin());
                    assertEquals("CONNECTED", UserReplica.fromBytes(again.get("u0000042")).state());
                    again.put("u0000044", UserReplica.page("u0000044", "node0c").toBytes());
                    awaitReplica(survivor, "u0000044"); // the pair copies again
                }
            }
        } finally {
            writer.process.destroyForcibly();
        }
    }

    /** Waits until {@code grid} holds a copy of {@code user} (a write reaches the partner asynchronously). */
    private static void awaitReplica(PairGrid grid, String user) throws InterruptedException {
        Poll.until(user + "'s copy to reach the partner", Duration.ofSeconds(30), () -> grid.get(user) != null);
    }
}
