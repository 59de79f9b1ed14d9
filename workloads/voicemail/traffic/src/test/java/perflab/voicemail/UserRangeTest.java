package perflab.voicemail;

import org.junit.jupiter.api.Test;
import perflab.core.workload.TrafficPart;

import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class UserRangeTest {
    private final UsersFile users = new UsersFile(1001, 0.5, 60_000, 1);

    @Test
    void agentsDealOutDisjointBlocksThatCoverTheUsersAndWrapWithinThemselves() {
        TrafficPart[] parts = {new TrafficPart(0, 0, 1 / 3.0), new TrafficPart(1, 1 / 3.0, 2 / 3.0),
                new TrafficPart(2, 2 / 3.0, 1)};
        Set<Integer> seen = new HashSet<>();
        for (TrafficPart part : parts) {
            UserRange range = new UserRange(users, part);
            Set<Integer> own = new HashSet<>();
            for (long arrival = 0; arrival < 2_000; arrival++) { // more than a block: it wraps
                own.add(range.user(arrival).index());
            }
            for (int i : own) {
                assertTrue(seen.add(i), "user " + i + " is dealt by two agents");
            }
        }
        assertEquals(users.size(), seen.size(), "the blocks cover every user");
        assertEquals(users.user(334), new UserRange(users, parts[1]).user(1), "agent 2's second user");
        assertEquals(users.user(7), new UserRange(users, TrafficPart.WHOLE).user(1008), "one process: the whole file");
    }

    @Test
    void aBlockTooSmallForItsRateIsRefusedInOneLine() {
        UserRange whole = new UserRange(users, TrafficPart.WHOLE);
        whole.checkLargeEnough(5, 60_000); // 5/s x 120 s = 600 alive
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> whole.checkLargeEnough(10, 60_000));
        assertTrue(e.getMessage().startsWith("1001 users are too few") && e.getMessage().contains("raise --users")
                && !e.getMessage().contains("\n"), e.getMessage());
        UserRange half = new UserRange(users, new TrafficPart(1, 0.5, 1));
        half.checkLargeEnough(2.5, 60_000);
        e = assertThrows(IllegalArgumentException.class, () -> half.checkLargeEnough(5, 60_000));
        assertTrue(e.getMessage().contains("this agent's block of 1001"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new UserRange(new UsersFile(1, 0.5, 1, 1),
                new TrafficPart(0, 0, 0.5)));
    }
}
