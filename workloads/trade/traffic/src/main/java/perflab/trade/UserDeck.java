package perflab.trade;

/**
 * The populated users one client logs in as, in turn: client {@code i} of {@code n} takes users i, i+n, i+2n, ...
 * below the population size, one per login, and starts again at i after the last. The clients' shares are
 * disjoint, so no two clients ever drive the same user, at once or at all: a user's holdings change only through
 * its own client, which is what lets a client sell a holding it saw on an earlier page without racing anyone, and
 * the users of a run are spread over the whole population as DayTrader's own drivers spread them.
 */
final class UserDeck {
    private final int first;
    private final int stride;
    private final int users;
    private int next;

    /**
     * @param client  the client's index, 0-based
     * @param clients how many clients share the population
     * @param users   the population size
     */
    UserDeck(int client, int clients, int users) {
        if (clients < 1 || client < 0 || client >= clients) {
            throw new IllegalArgumentException("client " + client + " is not one of " + clients + " clients");
        }
        if (client >= users) {
            throw new IllegalArgumentException(tooFewUsers(client, users));
        }
        this.first = client;
        this.stride = clients;
        this.users = users;
        this.next = client;
    }

    /** The one-line refusal of a client that would have no user of its own. */
    static String tooFewUsers(int client, int users) {
        return "client " + client + " has no user of its own: --users " + users + " is fewer than the clients; "
                + "give --users at least --clients";
    }

    /** The index of the user of the client's next login. */
    int next() {
        int user = next;
        next = (long) next + stride < users ? next + stride : first;
        return user;
    }
}
