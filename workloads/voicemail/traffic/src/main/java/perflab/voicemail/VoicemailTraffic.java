package perflab.voicemail;

import perflab.core.traffic.Agenda;
import perflab.core.traffic.ClientContext;
import perflab.core.traffic.ClientSession;
import perflab.core.traffic.Traffic;
import perflab.core.workload.TrafficPart;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The users' browsers. With {@code --rate} (the open model) users arrive at that rate and the {@link UserAgenda}
 * says when each step is due; without it (the closed model) every client is one user after another. When agents
 * share the run, each deals out only its own block of the users.
 */
final class VoicemailTraffic implements Traffic {
    /** Besides the hold, how long a user may take to be set up and torn down before its id comes round again. */
    static final long USER_SLACK_MS = 60_000;

    private final UserRange users;
    private final long seed;
    private final AtomicLong closedArrivals = new AtomicLong();
    private UserAgenda agenda;

    /**
     * @param part this process's part of the run: its block of the users, and its own arrivals' seed (a sum of
     *             independent Poisson arrivals is Poisson at the sum of the rates)
     */
    VoicemailTraffic(UsersFile users, long seed, TrafficPart part) {
        this.users = new UserRange(users, part);
        this.seed = part.whole() ? seed : seed ^ (0x9E3779B97F4A7C15L * (part.index() + 1));
    }

    @Override
    public Agenda agenda(double arrivalsPerSecond, boolean poisson) {
        users.checkLargeEnough(arrivalsPerSecond, USER_SLACK_MS);
        agenda = new UserAgenda(users, arrivalsPerSecond, poisson, seed);
        return agenda;
    }

    @Override
    public ClientSession newSession(ClientContext context) {
        return new BrowserSession(agenda, users, closedArrivals);
    }

    @Override
    public List<String> requestKinds() {
        return BrowserSession.KINDS;
    }
}
