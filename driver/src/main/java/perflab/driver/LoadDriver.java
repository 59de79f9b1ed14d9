package perflab.driver;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import org.HdrHistogram.Histogram;
import perflab.core.os.ProcessCpu;
import perflab.core.traffic.Agenda;
import perflab.core.traffic.ClientContext;
import perflab.core.traffic.ClientSession;
import perflab.core.traffic.ErrorKind;
import perflab.core.traffic.Traffic;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The load engine: drives a {@link Traffic} against one target over HTTP/1.1 or h2c with Netty event loops, in
 * the closed or open model, and measures a warm-up then a measured window. Connections are spread over the
 * loops round robin; over h2c the clients of one connection share its loop (see {@link LoadSpec} for how
 * clients map to connections).
 *
 * <p>Driver saturation: the result is marked saturated when, in the measured window,
 * <ul>
 *   <li>the driver process used more than {@value #SATURATED_CPU_SHARE} of the CPU of the cores available to
 *   it ({@code Runtime.availableProcessors()}), or</li>
 *   <li>in the open model, the send lag p99 exceeded {@value #SATURATED_LAG_P99_MS} ms: the driver did not
 *   send requests on time although a connection was free.</li>
 * </ul>
 * Time a due request spends waiting for a free connection (a slow or stalled server) is queueing, counted
 * in its latency but not in lag, so a stalling server never marks the driver saturated.
 */
public final class LoadDriver implements Drive {
    static final double SATURATED_CPU_SHARE = 0.9;
    static final double SATURATED_LAG_P99_MS = 10.0;
    /** At the end, in-flight requests get at most this long (and at most the timeout) to finish cleanly. */
    static final long MAX_GRACE_NANOS = TimeUnit.SECONDS.toNanos(2);
    /**
     * Open model, a driver that is one agent's share: how long after its end the window waits for its own requests.
     * Past it, those still outstanding fail as timeouts: the agent's last report goes out after the drain, and a
     * driver silent for longer than its controller allows (AgentsDrive.SILENCE, 10 s) would be taken for lost. A lone
     * driver waits as long as it takes, twice the timeout at most (within which each request answers or times out):
     * a click of voicemail's that took 6 s on a loaded machine is a slow success, not a failure.
     */
    static final long AGENT_MAX_DRAIN_NANOS = TimeUnit.SECONDS.toNanos(5);

    private final LoadSpec spec;
    private final Traffic traffic;
    private final MeasurementWindow window;
    private final RequestKinds kinds;
    private volatile boolean started;
    /** How often intervals are cut: a second, shorter in tests that want many cuts. */
    long intervalNanos = IntervalTicker.PERIOD_NANOS;
    /** Open model: the longest the window waits for its own requests after its end (tests shorten it). */
    long maxDrainNanos;
    /** The running run's ticker, for {@link #endWarmup}; null before and after. */
    private volatile IntervalTicker ticker;

    static {
        // Netty tracks 1 in 128 buffers for leaks by default, each with a stack trace and a wrapper every access goes
        // through: 2 % of the driver's CPU at 50,000 requests a second (docs/BENCHMARKS.md, issue 13). The driver's
        // buffers are checked by its bounded-memory bench instead; -Dio.netty.leakDetection.level=... still rules.
        if (System.getProperty("io.netty.leakDetection.level") == null
                && System.getProperty("io.netty.leakDetectionLevel") == null) {
            io.netty.util.ResourceLeakDetector.setLevel(io.netty.util.ResourceLeakDetector.Level.DISABLED);
        }
    }

    public LoadDriver(LoadSpec spec, Traffic traffic) {
        this.spec = spec;
        this.traffic = traffic;
        this.window = new MeasurementWindow(spec.warmupRequests(), spec.requests(), spec.openModel());
        this.maxDrainNanos = spec.share() != null ? AGENT_MAX_DRAIN_NANOS : Long.MAX_VALUE;
        this.kinds = new RequestKinds(traffic.requestKinds());
    }

    /**
     * Ends a timed warm-up from any thread (an automatic warm-up that found the system warm): the measured window
     * starts at the next interval cut, within a second, so that neither phase has a sliver of an interval at the
     * change; at once when no run is ticking yet. No effect once the window has started, or on a warm-up by count.
     */
    @Override
    public void endWarmup() {
        IntervalTicker t = ticker;
        if (t != null) {
            t.endWarmupAtNextCut();
        } else {
            window.endTimedWarmup();
        }
    }

    @Override
    public void stop(String reason) {
        window.stop(reason);
    }

    @Override
    public DriverResult run(IntervalListener listener) throws InterruptedException {
        if (started) {
            throw new IllegalStateException("a LoadDriver runs once; create a new one for another run");
        }
        started = true;
        // traffic that paces itself keeps its agenda on one thread: it runs on one loop, which takes thousands of
        // requests a second, far more than users who each send a few requests a minute need
        Agenda agenda = spec.openModel() ? traffic.agenda(spec.rate(), spec.schedule() == LoadSpec.Schedule.POISSON) : null;
        int loopCount = agenda != null ? 1
                : Math.min(spec.connectionCount(), spec.eventLoops() > 0 ? spec.eventLoops() : Runtime.getRuntime().availableProcessors());
        boolean epoll = Epoll.isAvailable();
        DefaultThreadFactory threads = new DefaultThreadFactory("perflab-driver-loop", true);
        EventLoopGroup group = epoll ? new EpollEventLoopGroup(loopCount, threads) : new NioEventLoopGroup(loopCount, threads);
        Class<? extends Channel> channelClass = epoll ? EpollSocketChannel.class : NioSocketChannel.class;
        DriverGcWatch gc = new DriverGcWatch();
        List<DriverLoop> loops = new ArrayList<>();
        try {
            String host = spec.target().getHost();
            int port = spec.target().getPort() > 0 ? spec.target().getPort() : 80;
            InetSocketAddress address = new InetSocketAddress(host, port); // resolved once, not per connect
            String hostHeader = port == 80 ? host : host + ":" + port;
            long timeoutNanos = spec.timeout().toNanos();
            for (int i = 0; i < loopCount; i++) {
                loops.add(new DriverLoop((EventLoop) group.next(), window, hostHeader, timeoutNanos, kinds));
            }
            int[] clientsPerLoop = new int[loopCount];
            int streams = spec.streamsPerConnection();
            for (int c = 0; c < spec.connectionCount(); c++) {
                DriverLoop loop = loops.get(c % loopCount);
                Bootstrap bootstrap = new Bootstrap().group(loop.eventLoop).channel(channelClass)
                        .option(ChannelOption.TCP_NODELAY, true)
                        .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(spec.timeout().toMillis(), 10_000))
                        .remoteAddress(address);
                H2Connection h2 = spec.http() == LoadSpec.HttpVersion.H2C ? new H2Connection(loop, spec.connections()) : null;
                for (int i = c * streams; i < Math.min(spec.clients(), (c + 1) * streams); i++) {
                    clientsPerLoop[c % loopCount]++;
                    int clientIndex = spec.firstClientIndex() + i;
                    long clientSeed = mix(spec.seed(), clientIndex);
                    ClientSession session = traffic.newSession(new ClientContext(clientIndex, clientSeed, spec.runClients()));
                    if (h2 == null) {
                        ClientConnection client = new ClientConnection(loop, session, spec.connections(),
                                spec.deepCheckRatio(), mix(clientSeed, 0x5EED), spec.openModel());
                        client.bootstrap(bootstrap.handler(client.handler()));
                        loop.clients.add(client);
                        loop.connections.add(client);
                    } else {
                        H2Client client = new H2Client(loop, h2, session, spec.deepCheckRatio(), mix(clientSeed, 0x5EED),
                                spec.openModel());
                        h2.add(client);
                        loop.clients.add(client);
                    }
                }
                if (h2 != null) {
                    h2.bootstrap(bootstrap.handler(h2.initializer()));
                    loop.connections.add(h2);
                }
            }
            long startNanos = System.nanoTime();
            for (int i = 0; i < loopCount; i++) {
                DriverLoop loop = loops.get(i);
                if (agenda != null) {
                    agenda.start(startNanos);
                    loop.model = new OpenModel(window, loop.stats, new AgendaSchedule(agenda), timeoutNanos, kinds.none());
                } else if (spec.openModel()) {
                    double share = spec.rate() * clientsPerLoop[i] / spec.clients();
                    OpenModelSchedule schedule = new OpenModelSchedule(spec.schedule(), share, scheduleSeed(i),
                            startNanos, (i + stagger()) / loopCount);
                    loop.model = new OpenModel(window, loop.stats, schedule, timeoutNanos, kinds.none());
                } else {
                    loop.model = new ClosedModel(window, spec.thinkTime().toNanos());
                }
            }
            boolean warmup = spec.warmupRequests() > 0 || !spec.warmup().isZero();
            window.begin(warmup);
            IntervalTicker started = new IntervalTicker(loops, window, listener == null ? i -> { } : listener,
                    intervalNanos, kinds);
            boolean warmupByTime = warmup && spec.warmupRequests() == 0;
            started.start(warmupByTime ? System.nanoTime() + spec.warmup().toNanos() : 0);
            ticker = started;
            loops.forEach(DriverLoop::start);

            if (warmupByTime) {
                // the ticker starts the window at a cut when the warm-up's time is up (or endWarmup() asked);
                // this thread only steps in if the ticker is late, held up by a slow listener
                if (!window.awaitMeasureStart(spec.warmup().toNanos() + 2 * intervalNanos)) {
                    window.startMeasure();
                }
            } else if (warmup) {
                window.awaitMeasureStart();
            }
            ProcessCpu.Sample cpuStart = ProcessCpu.self();
            gc.windowStart(window.measureStartEpochMs());
            if (warmup) {
                started.phaseChanged();
            }
            if (spec.duration() != null) {
                long end = window.measureStartNanos() + spec.duration().toNanos();
                if (!window.awaitMeasureEnd(Math.max(0, end - System.nanoTime()))) {
                    window.endMeasureAndDrain("completed");
                }
            } else {
                window.awaitMeasureEnd();
            }
            ProcessCpu.Sample cpuEnd = ProcessCpu.self();
            gc.windowEnd(window.measureEndEpochMs());
            if (window.draining()) {
                if (!drained(loops, Math.min(2 * timeoutNanos, maxDrainNanos))) {
                    for (DriverLoop loop : loops) {
                        onLoop(loop, () -> {
                            loop.failOutstanding();
                            return null;
                        });
                    }
                }
                window.endDrain();
            }
            ticker.finish();
            ticker = null;

            awaitInFlight(loops, Math.min(timeoutNanos, MAX_GRACE_NANOS));
            List<LoopStats.Totals> totals = new ArrayList<>();
            for (DriverLoop loop : loops) {
                totals.add(onLoop(loop, loop.stats::totals));
            }
            return result(totals, cpuStart, cpuEnd, gc);
        } finally {
            window.stop("interrupted"); // no-op after a normal end; stops the loops' sending otherwise
            if (ticker != null) {
                ticker.finish();
            }
            for (DriverLoop loop : loops) {
                loop.eventLoop.execute(loop::shutdown);
            }
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(10, TimeUnit.SECONDS);
            gc.close();
        }
    }

    private DriverResult result(List<LoopStats.Totals> totals, ProcessCpu.Sample cpuStart, ProcessCpu.Sample cpuEnd,
                                DriverGcWatch gc) {
        Histogram latency = new Histogram(LoopStats.DIGITS);
        Histogram service = new Histogram(LoopStats.DIGITS);
        Histogram failed = new Histogram(LoopStats.DIGITS);
        Histogram lag = new Histogram(LoopStats.DIGITS);
        long[] errorCounts = new long[ErrorKind.values().length];
        long successes = 0;
        long sent = 0;
        long received = 0;
        long warmup = 0;
        long connections = 0;
        long resent = 0;
        for (LoopStats.Totals t : totals) {
            latency.add(t.latency());
            service.add(t.serviceTime());
            failed.add(t.failed());
            lag.add(t.lag());
            for (int k = 0; k < errorCounts.length; k++) {
                errorCounts[k] += t.errors()[k];
            }
            successes += t.successes();
            sent += t.bytesSent();
            received += t.bytesReceived();
            warmup += t.warmupCompleted();
            connections += t.connectionsOpened();
            resent += t.resent();
        }
        Map<ErrorKind, Long> errors = errorMap(errorCounts);
        double seconds = Math.max(0, (window.measureEndNanos() - window.measureStartNanos()) / 1e9);
        double cpuSeconds = ProcessCpu.secondsBetween(cpuStart, cpuEnd);
        String saturation = saturation(spec.openModel(), Runtime.getRuntime().availableProcessors(), cpuSeconds,
                seconds, lag);
        String reason = window.endReason();
        return new DriverResult("completed".equals(reason), reason, window.measureStartEpochMs(),
                window.measureEndEpochMs(), seconds, successes, errors, window.errorSamples(), latency, service,
                failed, lag, warmup, connections, cpuSeconds, gc.pauseMs(), saturation != null, saturation, sent,
                received, resent, byKind(totals));
    }

    /** The kinds that had requests in the window, in the traffic's order, added over the loops. */
    private Map<String, KindFigures> byKind(List<LoopStats.Totals> totals) {
        Map<String, KindFigures> byKind = new LinkedHashMap<>();
        for (int k = 0; k < kinds.size(); k++) {
            Histogram latency = new Histogram(LoopStats.DIGITS);
            long[] errorCounts = new long[ErrorKind.values().length];
            long successes = 0;
            for (LoopStats.Totals t : totals) {
                LoopStats.KindTotals kt = t.kinds()[k];
                latency.add(kt.latency());
                successes += kt.successes();
                for (int e = 0; e < errorCounts.length; e++) {
                    errorCounts[e] += kt.errors()[e];
                }
            }
            KindFigures f = new KindFigures(successes, errorMap(errorCounts), latency);
            if (f.requests() > 0) {
                byKind.put(kinds.name(k), f);
            }
        }
        return byKind;
    }

    static Map<ErrorKind, Long> errorMap(long[] counts) {
        Map<ErrorKind, Long> errors = new EnumMap<>(ErrorKind.class);
        for (ErrorKind k : ErrorKind.values()) {
            errors.put(k, counts[k.ordinal()]);
        }
        return errors;
    }

    /** The rule in the class comment; null when the driver kept up. Also applied to an agent's single second. */
    public static String saturation(boolean openModel, int cores, double cpuSeconds, double seconds, Histogram lag) {
        if (seconds >= 0.5 && !Double.isNaN(cpuSeconds)) {
            double share = cpuSeconds / (seconds * cores);
            if (share > SATURATED_CPU_SHARE) {
                return String.format("driver CPU was %.0f%% of the %d cores available to it (limit %.0f%%)",
                        100 * share, cores, 100 * SATURATED_CPU_SHARE);
            }
        }
        if (openModel && lag.getTotalCount() > 0) {
            double p99 = lag.getValueAtPercentile(99) / 1000.0;
            if (p99 > SATURATED_LAG_P99_MS) {
                return String.format("the open-model schedule fell behind: send lag p99 %.1f ms (limit %.0f ms)",
                        p99, SATURATED_LAG_P99_MS);
            }
        }
        return null;
    }

    /**
     * Open model: waits until every request meant for the window has its answer or has failed, at most
     * {@code boundNanos}; false if some are still outstanding then (the caller fails them as timeouts).
     */
    private static boolean drained(List<DriverLoop> loops, long boundNanos) throws InterruptedException {
        long deadline = System.nanoTime() + boundNanos;
        while (true) {
            boolean outstanding = false;
            for (DriverLoop loop : loops) {
                outstanding |= onLoop(loop, loop::windowOutstanding);
            }
            if (!outstanding) {
                return true;
            }
            if (System.nanoTime() - deadline >= 0) {
                return false;
            }
            Thread.sleep(5);
        }
    }

    /** Lets requests in flight at the end finish (they are not counted) so connections close cleanly. */
    private static void awaitInFlight(List<DriverLoop> loops, long graceNanos) throws InterruptedException {
        long deadline = System.nanoTime() + graceNanos;
        while (System.nanoTime() < deadline) {
            int inFlight = 0;
            for (DriverLoop loop : loops) {
                inFlight += onLoop(loop, loop::inFlight);
            }
            if (inFlight == 0) {
                return;
            }
            Thread.sleep(5);
        }
    }

    private static <T> T onLoop(DriverLoop loop, java.util.concurrent.Callable<T> task) throws InterruptedException {
        try {
            return loop.eventLoop.submit(task).get(10, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("driver event loop task failed: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("driver event loop did not answer within 10 s", e);
        }
    }

    /**
     * The Poisson seed of one loop's schedule: each agent's loops get their own, so that the agents' processes are
     * independent (their sum is then Poisson at the run's rate); a lone driver's are those it always had.
     */
    private long scheduleSeed(int loop) {
        long base = spec.share() == null ? spec.seed() : mix(spec.seed(), -1_000_000L - spec.share().agent());
        return mix(base, -1 - loop);
    }

    /** A constant schedule's offset for this agent's place (0 for a lone driver), see {@link AgentShare}. */
    private double stagger() {
        return spec.share() == null ? 0 : spec.share().stagger();
    }

    /** A well-spread 64-bit seed from a seed and an index (SplitMix64's finalizer). */
    static long mix(long seed, long index) {
        long z = seed + 0x9E3779B97F4A7C15L * (index + 1);
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
