package perflab.voicemail.lean.replica;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.infinispan.AdvancedCache;
import org.infinispan.commons.dataconversion.MediaType;
import org.infinispan.configuration.parsing.ConfigurationBuilderHolder;
import org.infinispan.configuration.parsing.ParserRegistry;
import org.infinispan.context.Flag;
import org.infinispan.manager.DefaultCacheManager;
import org.infinispan.notifications.Listener;
import org.infinispan.notifications.cachelistener.annotation.CacheEntryCreated;
import org.infinispan.notifications.cachelistener.annotation.CacheEntryModified;
import org.infinispan.notifications.cachelistener.annotation.TopologyChanged;
import org.infinispan.notifications.cachelistener.event.CacheEntryEvent;
import org.infinispan.notifications.cachelistener.event.TopologyChangedEvent;
import org.infinispan.notifications.cachemanagerlistener.annotation.ViewChanged;
import org.infinispan.notifications.cachemanagerlistener.event.ViewChangedEvent;

/**
 * One instance's half of a replication pair: an embedded Infinispan cache manager in a two-member cluster with its
 * partner, over TCP on loopback, holding a replicated cache of the users' sessions (user id to replica bytes). Each
 * instance writes its own users' sessions; the partner holds a copy of every one of them, ready for when this one
 * fails.
 * <p>
 * The JGroups stack is Infinispan's built-in {@code tcp} stack, extended: TCP bound to 127.0.0.1 on the port perflab
 * chose, TCPPING with the two members' ports instead of multicast discovery (MPING needs a multicast route), and
 * failure detection by heartbeats (FD_ALL3, 1 s apart, 8 s without one) in place of FD_SOCK2, whose server port is
 * the transport's plus a fixed offset: two ports perflab chose are not a fixed offset apart. With 3 s without a
 * heartbeat, PairGridKillTest lost the partner's copy in 2 runs of 10 on a loaded machine (two busy loops beside it;
 * 0 of 7 with 8 s), most likely a member busy compiling suspected falsely and the pair split. Nothing waits for the
 * detection: a partner serves the failed member's users from the copies it holds, whatever its view. Messages are
 * sent on the writer's thread ({@code no-bundler}): at a pair's few hundred copies a second the default bundler's
 * hand-off to a thread of its own cost more than bundling saved (a CPU profile of a pair at 60 users/s put 8 % of
 * an instance's CPU in that thread; without it, JGroups and Infinispan took about a quarter fewer samples). A copy
 * received is applied on the connection's receiver thread ({@code thread_pool.enabled="false"}), not handed to a
 * thread of JGroups' pool: with each copy under its writer's key (below), the receiver only applies copies, and a run
 * at 120 users/s kept 75 % of off's operations per SUT CPU-second with every-message against 70 % with the pool
 * (docs/BENCHMARKS.md, fourth look). Before the keys were the writer's, half the copies were sent on from the
 * receiver thread to their writer, and a run without the pool cost about 110 ms of CPU a second more (third look).
 * The cache is {@code REPL_ASYNC}: a write is handed to the network and the user's call goes on, so neither a slow nor a dead
 * partner holds a call up (a synchronous write to a partner that just died waits until its failure is detected).
 * Each user's copy goes under a key this member owns when it writes the copy first ({@link CopyKeys}): a replicated
 * cache sends a write through the key's primary owner, and a copy under the partner's key would cross the loopback
 * twice.
 */
public final class PairGrid implements AutoCloseable {
    static final String CACHE = "sessions";
    /** The loggers of the grid, held so their level stays: only warnings reach the instance's error output. */
    private static final List<Logger> QUIETED = List.of(Logger.getLogger("org.infinispan"), Logger.getLogger("org.jgroups"));

    private final DefaultCacheManager manager;
    private final AdvancedCache<String, byte[]> sessions;
    private final AtomicLong partnerLostEpochMs = new AtomicLong();
    /** Copies held here once this member's cache was up: the partner's, received by state transfer. */
    private final int heldAtJoin;
    private volatile PartnerWrites partnerWrites;
    /** The key each user's copy goes under: one this member owns, when it writes it first. */
    private final CopyKeys keys;

    /** Told when the partner's loss is seen: see {@link #onPartnerLost}. */
    private final java.util.List<Runnable> lostListeners = new java.util.concurrent.CopyOnWriteArrayList<>();

    private PairGrid(DefaultCacheManager manager) {
        this.manager = manager;
        manager.addListener(new ViewWatch(partnerLostEpochMs));
        // the cache's start waits for the initial state transfer: a member joining a partner that holds copies
        // has them all here when this returns
        AdvancedCache<String, byte[]> cache = manager.<String, byte[]>getCache(CACHE).getAdvancedCache();
        // no write needs the previous value: asking for it would make a remote read of it
        this.sessions = cache.withFlags(Flag.IGNORE_RETURN_VALUES);
        this.keys = new CopyKeys(this::primaryHere, key -> sessions.withFlags(Flag.CACHE_MODE_LOCAL).get(key));
        cache.addListener(new OwnersLost(lostListeners));
        this.heldAtJoin = held();
    }

    /**
     * Joins (or starts) the pair {@code cluster}: this member on {@code port}, its partner on {@code partnerPort},
     * both on 127.0.0.1. Returns once this member's cache is up; the partner may come later. When the partner is up
     * already (this member started second, or started again after a failure), returns once paired with it, every
     * copy it holds received (or, past a minute of trying, alone).
     */
    public static PairGrid join(String cluster, String node, int port, int partnerPort) {
        if (port < 1 || port > 65535 || partnerPort < 1 || partnerPort > 65535 || port == partnerPort) {
            throw new IllegalArgumentException("a replication pair needs two different ports, got " + port + " and "
                    + partnerPort);
        }
        if (!cluster.matches("[a-z0-9-]{1,64}") || !node.matches("[a-z0-9-]{1,64}")) {
            throw new IllegalArgumentException("a pair's and a member's names are lower-case words, got " + cluster
                    + " and " + node);
        }
        // jboss-logging (Infinispan's) to java.util.logging, whose level is set here; JGroups finds it by itself
        System.setProperty("org.jboss.logging.provider", "jdk");
        QUIETED.forEach(logger -> logger.setLevel(Level.WARNING));
        // a partner already up must end up paired with this member: this one was started again after a failure
        boolean partnerUp = listening(partnerPort);
        String xml = configuration(cluster, node, port, partnerPort, partnerUp ? JOIN_WAIT : ALONE_JOIN_WAIT);
        long deadline = System.nanoTime() + REJOIN_LIMIT.toNanos();
        for (int attempt = 1; ; attempt++) {
            PairGrid grid = start(xml);
            if (!partnerUp || grid.members() == 2 || System.nanoTime() > deadline) {
                return grid;
            }
            // Alone though the partner is up: the partner's view still holds this member's former self (killed,
            // not yet suspected: FD_ALL3 waits 8 s), so the coordinator its discovery answer named is a dead member
            // and this one started a grid of its own, which JGroups' merge would join only 10-30 s later, and
            // without this member receiving the partner's copies first. Leave and join again: once the partner has
            // dropped the former self, it is the coordinator and the join brings every copy by state transfer.
            System.err.printf(Locale.ROOT, "perflab: replication pair %s: started alone while the partner on port %d is "
                    + "up (join %d); joining again%n", cluster, partnerPort, attempt);
            grid.close();
            try {
                Thread.sleep(REJOIN_PAUSE.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while joining the replication pair " + cluster, e);
            }
        }
    }

    /** How long a member waits for its discovery's answers, the partner up: JGroups' default. */
    static final java.time.Duration JOIN_WAIT = java.time.Duration.ofSeconds(2);
    /**
     * The same with nothing listening on the partner's port: no answer can come, and the wait only delays the
     * instance's start (by 1.6 s of 4.7 s, a voicemail instance with its grid, measured). Not zero: a partner started
     * at the same moment (not by perflab, which starts a pair's members one after the other) still answers a
     * discovery sent a little after its transport is up; one that does not is joined later by JGroups' merge.
     */
    static final java.time.Duration ALONE_JOIN_WAIT = java.time.Duration.ofMillis(400);

    /** How long a member started again keeps joining its partner: past the partner's detection of its death. */
    private static final java.time.Duration REJOIN_LIMIT = java.time.Duration.ofSeconds(60);
    private static final java.time.Duration REJOIN_PAUSE = java.time.Duration.ofMillis(500);

    private static PairGrid start(String xml) {
        ConfigurationBuilderHolder holder = new ParserRegistry().parse(
                new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)), MediaType.APPLICATION_XML);
        DefaultCacheManager manager = new DefaultCacheManager(holder, true);
        try {
            return new PairGrid(manager);
        } catch (RuntimeException e) {
            manager.stop();
            throw e;
        }
    }

    /** Whether something accepts connections on 127.0.0.1:{@code port}: the partner's grid member. */
    private static boolean listening(int port) {
        try (java.net.Socket s = new java.net.Socket()) {
            s.connect(new java.net.InetSocketAddress("127.0.0.1", port), 1000);
            return true;
        } catch (java.io.IOException e) {
            return false;
        }
    }

    static String configuration(String cluster, String node, int port, int partnerPort, java.time.Duration joinWait) {
        return String.format(Locale.ROOT, """
                <infinispan xmlns="urn:infinispan:config:16.1">
                  <jgroups>
                    <stack name="pair" extends="tcp">
                      <TCP bind_addr="127.0.0.1" bind_port="%1$d" port_range="0" bundler_type="no-bundler"
                           thread_pool.enabled="false"/>
                      <TCPPING initial_hosts="127.0.0.1[%1$d],127.0.0.1[%2$d]" port_range="0"
                               stack.combine="REPLACE" stack.position="MPING"/>
                      <FD_SOCK2 stack.combine="REMOVE"/>
                      <FD_ALL3 timeout="8s" interval="1s"/>
                      <pbcast.GMS join_timeout="%6$dms"/>
                    </stack>
                  </jgroups>
                  <cache-container name="voicemail" statistics="false" shutdown-hook="DONT_REGISTER">
                    <transport cluster="%3$s" node-name="%4$s" stack="pair"/>
                    <metrics gauges="false" histograms="false"/>
                    <replicated-cache name="%5$s" mode="ASYNC" statistics="false"/>
                  </cache-container>
                </infinispan>
                """, port, partnerPort, cluster, node, CACHE, joinWait.toMillis());
    }

    /** Writes a user's replica (here and, on its way, at the partner), under the key {@link CopyKeys} gives. */
    public void put(String user, byte[] replica) {
        putUnder(keys.forWrite(user), replica);
    }

    /**
     * Whether {@code user}'s copy goes under a key this member is the primary owner of now, so that its next write is
     * applied here first, whatever becomes of the partner. Almost always true for a user this member writes first
     * ({@link CopyKeys#SALTS}); for a test to tell which writes a dead partner can take with it.
     */
    boolean copyKeyOwnedHere(String user) {
        return primaryHere(keys.forWrite(user));
    }

    /** Writes a replica under {@code key} as it is: for the bench of a copy's cost by where its key's owner is. */
    void putUnder(String key, byte[] replica) {
        sessions.put(key, replica);
    }

    public void remove(String user) {
        String key = keys.forRemoval(user);
        if (key != null) {
            sessions.remove(key);
        }
    }

    /**
     * The replica of {@code user} held here, whichever member wrote it; null: none. Read here only: while the cache's
     * topology is being rebalanced (a partner joining) a plain read may be sent to the partner, which would answer
     * for a copy this member does not yet hold, or, dead, hold the read up until it is suspected.
     */
    public byte[] get(String user) {
        String key = keys.held(user);
        return key == null ? null : sessions.withFlags(Flag.CACHE_MODE_LOCAL).get(key);
    }

    /** Whether this member is the primary owner of {@code key} now: a write of it goes to no other member first. */
    boolean primaryHere(String key) {
        return sessions.getDistributionManager().getCacheTopology().getDistribution(key).isPrimary();
    }

    /** Members in the pair's view now: 2 with the partner up, 1 alone. */
    public int members() {
        List<?> members = manager.getMembers();
        return members == null ? 1 : members.size();
    }

    /**
     * When this member last saw the pair's view lose a member (the partner's failure detected: heartbeats missed
     * for FD_ALL3's timeout and the suspicion verified), epoch milliseconds; 0 while it never has.
     */
    public long partnerLostEpochMs() {
        return partnerLostEpochMs.get();
    }

    /**
     * Whether the pair is whole: both members in the cache's topology and no state transfer under way, so each holds
     * every copy as its own. A member killed before that (its partner still receiving the copies from it) takes
     * copies with it that the partner had only in transit.
     */
    public boolean paired() {
        var distribution = sessions.getDistributionManager();
        return members() == 2 && distribution.getCacheTopology().getMembers().size() == 2
                && !distribution.isRehashInProgress();
    }

    /**
     * Copies this member received when it joined: 0 for a member of a pair starting together (no load yet), the
     * partner's users' copies (and those of the calls it took over) for a member that came back after a failure.
     */
    public int heldAtJoin() {
        return heldAtJoin;
    }

    /**
     * Tells {@code user} of every copy the partner writes (created or replaced) from now on, with its bytes, on the
     * grid's thread: how a member learns that the partner took a call back. Registered when first needed (after a
     * take-over), so that the steady state pays nothing for it; once.
     */
    public synchronized void onPartnerWrites(java.util.function.BiConsumer<String, byte[]> user) {
        if (partnerWrites == null) {
            partnerWrites = new PartnerWrites(user);
            sessions.addListener(partnerWrites);
        }
    }

    /**
     * Runs {@code task} each time the cache's topology drops the partner (after the view does), on a thread of the
     * grid's. Until then a write of a copy whose primary owner is the dead partner went to the dead partner and was
     * lost, here too (a replicated cache's write goes through the key's primary owner): a member that served users
     * meanwhile writes their copies again, so that a partner coming back receives them.
     */
    public void onPartnerLost(Runnable task) {
        lostListeners.add(task);
    }

    /** Replicas held here: this instance's users' and the partner's. */
    public int held() {
        return sessions.withFlags(Flag.CACHE_MODE_LOCAL).size();
    }

    @Override
    public void close() {
        manager.stop();
    }

    /** The partner's writes, after they are applied here. Public: Infinispan calls it reflectively. */
    @Listener(observation = Listener.Observation.POST)
    public static final class PartnerWrites {
        private final java.util.function.BiConsumer<String, byte[]> user;

        PartnerWrites(java.util.function.BiConsumer<String, byte[]> user) {
            this.user = user;
        }

        @CacheEntryCreated
        @CacheEntryModified
        public void written(CacheEntryEvent<String, byte[]> e) {
            if (!e.isOriginLocal() && e.getValue() != null) {
                user.accept(CopyKeys.user(e.getKey()), e.getValue());
            }
        }
    }

    /** Notes the moment a view smaller than the one before is installed. Public: Infinispan calls it reflectively. */
    @Listener
    public static final class ViewWatch {
        private final AtomicLong lostAt;

        ViewWatch(AtomicLong lostAt) {
            this.lostAt = lostAt;
        }

        @ViewChanged
        public void changed(ViewChangedEvent e) {
            if (e.getNewMembers().size() < e.getOldMembers().size()) {
                lostAt.set(System.currentTimeMillis());
            }
        }
    }

    /**
     * Runs the tasks of {@link #onPartnerLost} once the cache's topology has dropped a member: only from then on does
     * a write go to an owner that is alive (the view changes first; a write between the two still went to the dead
     * primary owner). Asynchronous: the tasks write to the cache, which a topology listener must not wait on.
     * Public: Infinispan calls it reflectively.
     */
    @Listener(sync = false)
    public static final class OwnersLost {
        private final List<Runnable> lost;

        OwnersLost(List<Runnable> lost) {
            this.lost = lost;
        }

        @TopologyChanged
        public void changed(TopologyChangedEvent<String, byte[]> e) {
            if (!e.isPre() && e.getWriteConsistentHashAtEnd().getMembers().size()
                    < e.getWriteConsistentHashAtStart().getMembers().size()) {
                lost.forEach(Runnable::run);
            }
        }
    }
}
