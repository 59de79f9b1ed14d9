package perflab.voicemail;

import perflab.core.workload.TrafficPart;

/**
 * The users one driver process deals out, in turn: all of the {@link UsersFile}, or, when agents share the run, the
 * block of it that is its part ({@link TrafficPart}), so that no two agents drive the same user. A block rather than
 * every N-th user: taken in turn it wraps round within itself, never onto another agent's users.
 */
final class UserRange {
    private final UsersFile users;
    private final int first;
    private final int count;

    UserRange(UsersFile users, TrafficPart part) {
        this.users = users;
        this.first = (int) part.first(users.size());
        this.count = (int) (part.end(users.size()) - first);
        if (count < 1) {
            throw new IllegalArgumentException(users.size() + " users leave agent " + (part.index() + 1)
                    + " none of its own; raise --users");
        }
    }

    /** The user that arrives {@code arrival}-th (0-based) at this process. */
    UsersFile.User user(long arrival) {
        return users.user(first + Math.floorMod(arrival, (long) count));
    }

    /**
     * Refuses a block that this process's users would wrap round while the first of them is still in its call, at
     * this process's arrival rate.
     */
    void checkLargeEnough(double arrivalsPerSecond, long slackMs) {
        double alive = arrivalsPerSecond * (users.holdMs() + slackMs) / 1000.0;
        if (alive >= count) {
            String whose = count == users.size() ? "" : " (this agent's block of " + users.size() + ")";
            throw new IllegalArgumentException(String.format(
                    "%d users%s are too few for %.1f new users per second held %d ms: about %.0f are in a call at once; raise --users",
                    count, whose, arrivalsPerSecond, users.holdMs(), alive));
        }
    }
}
