package perflab.voicemail.lean.replica;

import java.util.Arrays;

/**
 * A member of a replication pair in a JVM of its own, for {@link PairGridKillTest}: joins the pair, waits for its
 * partner (saying {@code STARTED} once its cache is up), writes the pages of the other users named, then one user's
 * call, says {@code WRITTEN} and waits to be killed.
 * Arguments: pair, own port, partner's port, user in a call, users on their page.
 */
public final class ReplicaWriter {
    private ReplicaWriter() {
    }

    public static void main(String[] args) throws Exception {
        PairGrid grid = PairGrid.join(args[0], "writer", Integer.parseInt(args[1]), Integer.parseInt(args[2]));
        System.out.println("STARTED");
        System.out.flush();
        long end = System.nanoTime() + 60_000_000_000L;
        while (grid.members() < 2 && System.nanoTime() < end) {
            Thread.sleep(20);
        }
        System.out.println("MEMBERS " + grid.members());
        for (String user : Arrays.asList(args).subList(4, args.length)) {
            grid.put(user, UserReplica.page(user, "node0writer").toBytes());
        }
        grid.put(args[3], new UserReplica(args[3], "node0writer", "CONNECTED", 3,
                Arrays.asList(null, null, null)).toBytes());
        System.out.println("WRITTEN");
        System.out.flush();
        Thread.sleep(120_000); // killed long before; bounded so a lost test run leaves nothing behind for long
    }
}
