package perflab.voicemail;

import perflab.core.workload.SutInstances;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The replication pairs of voicemail's instances ({@code --replication}): instance i's partner is i xor 1 (0 with 1,
 * 2 with 3...), each pair its own two-member grid on two loopback ports perflab chooses before any instance starts,
 * so that whichever starts first names the other's. Pairs, not one grid of N, because a grid places a copy by its
 * own hash, and the proxies send a failed instance's users to one chosen partner ({@link ClusterRoutes}): the copy
 * has to be where the users go.
 */
final class ReplicationPairs {
    /** The port perflab chooses for each instance's grid: {@code {sut-0.replica}}. */
    static final String PORT = "replica";

    private ReplicationPairs() {
    }

    static int partner(int instance) {
        return instance ^ 1;
    }

    /** Each instance's own settings: its pair's name, its grid's port and its partner's. */
    static List<Map<String, String>> settings(int instances) {
        List<Map<String, String>> all = new ArrayList<>(instances);
        for (int i = 0; i < instances; i++) {
            all.add(Map.of(
                    "replica-pair", "voicemail-pair-" + (i / 2),
                    "replica-port", "{" + SutInstances.name(i, instances) + "." + PORT + "}",
                    "partner-replica-port", "{" + SutInstances.name(partner(i), instances) + "." + PORT + "}"));
        }
        return all;
    }
}
