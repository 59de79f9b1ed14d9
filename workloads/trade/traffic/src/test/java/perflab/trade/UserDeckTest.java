package perflab.trade;

import org.junit.jupiter.api.Test;
import perflab.core.traffic.ClientContext;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class UserDeckTest {
    @Test
    void clientsTakeDisjointSharesThatTogetherCoverThePopulation() {
        int users = 50;
        for (int n = 1; n <= 7; n++) {
            Set<Integer> all = new HashSet<>();
            for (int c = 0; c < n; c++) {
                UserDeck deck = new UserDeck(c, n, users);
                Set<Integer> share = new HashSet<>();
                int size = (users - c + n - 1) / n;
                for (int i = 0; i < 3 * size; i++) {
                    int user = deck.next();
                    assertEquals(c, user % n, "client " + c + " of " + n + " got user " + user);
                    assertTrue(user < users);
                    share.add(user);
                    if (i == size) {
                        assertEquals(c, user, "after its last user the client starts again at its first");
                    }
                }
                assertEquals(size, share.size());
                for (int user : share) {
                    assertTrue(all.add(user), "user " + user + " dealt to two clients of " + n);
                }
            }
            assertEquals(users, all.size(), n + " clients");
        }
    }

    @Test
    void usersTakenInTurn() {
        UserDeck deck = new UserDeck(1, 3, 10);
        assertEquals(List.of(1, 4, 7, 1, 4), List.of(deck.next(), deck.next(), deck.next(), deck.next(), deck.next()));
    }

    @Test
    void aClientWithoutAUserOfItsOwnIsRefused() {
        TradeTraffic traffic = TradeSessionTest.traffic("standard", 4);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> traffic.newSession(new ClientContext(4, 1)));
        assertEquals("client 4 has no user of its own: --users 4 is fewer than the clients; give --users at least --clients",
                e.getMessage());
    }

    @Test
    void theClientCountIsFixedWhenTheFirstUserIsDealt() {
        TradeTraffic traffic = TradeSessionTest.traffic("standard", 100);
        traffic.newSession(new ClientContext(0, 1));
        traffic.newSession(new ClientContext(1, 2)).next(); // deals: 2 clients
        traffic.newSession(new ClientContext(1, 3)); // a lower index still fits
        IllegalStateException late = assertThrows(IllegalStateException.class,
                () -> traffic.newSession(new ClientContext(2, 4)));
        assertTrue(late.getMessage().startsWith("client 2 started after the users were dealt to 2 clients"), late.getMessage());
    }

    @Test
    void anAgentsSessionsDealByTheRunsClientCountNotTheirOwnHighestIndex() {
        // the second of two agents with 2 clients each: its clients are 2 and 3 of a run of 4
        TradeTraffic traffic = TradeSessionTest.traffic("standard", 100);
        traffic.newSession(new ClientContext(2, 1, 4)).next();
        traffic.newSession(new ClientContext(3, 2, 4)).next();
        assertEquals(4, traffic.clients.fix(), "the run's count, given, not 3 + 1 from the highest index seen");
    }
}
