package perflab.voicemail.lean.replica;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * The users' sessions as the application copies them to the partner instance: what {@code --replication} asks for,
 * at the moments it names ({@link ReplicationMode}), through the instance's {@link PairGrid}. With replication off
 * nothing is written and there is no grid. Every method may be called from any thread; one user's writes come from
 * the user's serial executor (the SIP side) or before it has one (the page), so they arrive in order.
 */
public final class SessionReplicas implements AutoCloseable {
    private final ReplicationMode mode;
    private final PairGrid grid;
    private final LongAdder writes = new LongAdder();
    private final LongAdder bytes = new LongAdder();
    private final LongAdder removes = new LongAdder();
    private final LongAdder failures = new LongAdder();

    private SessionReplicas(ReplicationMode mode, PairGrid grid) {
        this.mode = mode;
        this.grid = grid;
    }

    /** No replication. */
    public static SessionReplicas off() {
        return new SessionReplicas(ReplicationMode.OFF, null);
    }

    /** Replication in {@code mode} (not off) through {@code grid}, which this closes when it closes. */
    public static SessionReplicas through(ReplicationMode mode, PairGrid grid) {
        if (mode == ReplicationMode.OFF || grid == null) {
            throw new IllegalArgumentException("replication " + mode.label() + " with " + (grid == null ? "no" : "a")
                    + " grid");
        }
        return new SessionReplicas(mode, grid);
    }

    public ReplicationMode mode() {
        return mode;
    }

    /** Whether a copy is written at {@code moment}: the caller builds the replica only then. */
    public boolean writesAt(ReplicationMode.Moment moment) {
        return mode.writesAt(moment);
    }

    /**
     * Writes the user's replica if the mode writes at {@code moment}; with {@code moment} null, whenever replication
     * is on (a call taken over, a browser moved: the other member must know now, whatever the mode's moments).
     */
    public void write(UserReplica replica, ReplicationMode.Moment moment) {
        if (mode == ReplicationMode.OFF || moment != null && !mode.writesAt(moment)) {
            return;
        }
        byte[] value = replica.toBytes();
        try {
            grid.put(replica.user(), value);
            writes.increment();
            bytes.add(value.length);
        } catch (RuntimeException e) {
            // the call goes on without its copy; the stats page says how often
            failures.increment();
        }
    }

    /** The user's calls are over: the partner need not keep them. */
    public void remove(String user) {
        if (mode == ReplicationMode.OFF) {
            return;
        }
        try {
            grid.remove(user);
            removes.increment();
        } catch (RuntimeException e) {
            failures.increment();
        }
    }

    /** The replica held here for {@code user} (the partner's users' too); null when none or replication is off. */
    public UserReplica read(String user) {
        byte[] value = mode == ReplicationMode.OFF ? null : grid.get(user);
        return value == null ? null : UserReplica.fromBytes(value);
    }

    /**
     * Whether this instance came back to a partner that held copies (started again after a failure): the calls it
     * takes over from copies then are its own users', handed back. False with replication off.
     */
    public boolean rejoined() {
        return grid != null && grid.heldAtJoin() > 0;
    }

    /**
     * Tells {@code copy} of each copy the partner writes from now on of a user {@code servedHere} names, decoded (a
     * copy that cannot be read counts as a failure); nothing with replication off. See {@link PairGrid#onPartnerWrites}.
     */
    public void onPartnerWrites(java.util.function.Predicate<String> servedHere,
                                java.util.function.Consumer<UserReplica> copy) {
        if (grid == null) {
            return;
        }
        grid.onPartnerWrites((user, value) -> {
            if (!servedHere.test(user)) {
                return; // the partner's own users: most writes, never decoded
            }
            try {
                copy.accept(UserReplica.fromBytes(value));
            } catch (IllegalArgumentException e) {
                failures.increment();
            }
        });
    }

    /**
     * Runs {@code rewrite} each time the partner's loss is seen ({@link PairGrid#onPartnerLost}): the copies written
     * since the partner died may have been lost; nothing with replication off.
     */
    public void onPartnerLost(Runnable rewrite) {
        if (grid != null) {
            grid.onPartnerLost(rewrite);
        }
    }

    /** For the stats page: {@code replication.*}; nothing when off. */
    public Map<String, Long> counters() {
        Map<String, Long> all = new LinkedHashMap<>();
        if (mode == ReplicationMode.OFF) {
            return all;
        }
        all.put("replication.writes", writes.sum());
        all.put("replication.bytes", bytes.sum());
        all.put("replication.removes", removes.sum());
        all.put("replication.failures", failures.sum());
        all.put("replication.members", (long) grid.members());
        all.put("replication.held", (long) grid.held());
        all.put("replication.partner-lost-epoch-ms", grid.partnerLostEpochMs());
        all.put("replication.held-at-join", (long) grid.heldAtJoin());
        return all;
    }

    @Override
    public void close() {
        if (grid != null) {
            grid.close();
        }
    }
}
