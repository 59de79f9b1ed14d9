package perflab.voicemail;

import perflab.core.traffic.Agenda;
import perflab.core.traffic.ClientContext;
import perflab.core.traffic.ClientSession;
import perflab.core.traffic.Traffic;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The users' browsers. With {@code --rate} (the open model) users arrive at that rate and the {@link UserAgenda}
 * says when each step is due; without it (the closed model) every client is one user after another.
 */
final class VoicemailTraffic implements Traffic {
    /** Besides the hold, how long a user may take to be set up and torn down before its id comes round again. */
    static final long USER_SLACK_MS = 60_000;

    private final UsersFile users;
    private final long seed;
    private final AtomicLong closedArrivals = new AtomicLong();
    private UserAgenda agenda;

    VoicemailTraffic(UsersFile users, long seed) {
        this.users = users;
        this.seed = seed;
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
