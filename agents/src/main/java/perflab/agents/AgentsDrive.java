package perflab.agents;

import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import perflab.agents.deploy.AgentDeployer;
import perflab.agents.wire.AgentService;
import perflab.agents.wire.ToAgent;
import perflab.agents.wire.ToController;
import perflab.driver.Drive;
import perflab.driver.DriverResult;
import perflab.driver.DriverResults;
import perflab.driver.IntervalListener;
import perflab.driver.LoadDriver;
import perflab.driver.LoadSpec;
import perflab.driver.Phase;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The controller: a run's load made by agents. It listens on one port (the agents dial it), deploys the agents,
 * checks each one's token, splits the load by their CPUs ({@link WorkSplit}), sends the plans, starts nobody before
 * every agent is ready, adds the agents' intervals by index as they come ({@link IntervalMerge}) for the run's
 * listener, and merges their results. The merged measured series must add up to the agents' totals, or the run
 * fails. An agent that fails, is lost, or is silent past {@link #SILENCE} voids the run: the others are told to
 * stop, what they measured is kept, and the result says why it is void.
 *
 * <p>Everything the agents say goes through one queue to the thread in {@link #run}: no state is shared with gRPC's
 * threads.
 */
public final class AgentsDrive implements Drive {
    static final Duration CONNECT = Duration.ofSeconds(60);
    static final Duration READY = Duration.ofSeconds(120);
    static final Duration SILENCE = Duration.ofSeconds(10);
    /** After a stop, how long agents get to send their results. */
    static final Duration FINISH = Duration.ofSeconds(15);
    /** Seconds between the console's line of every agent's rate and CPU. */
    static final int LIVE_EVERY = 10;
    public static final String VOID = "void: ";

    /** One thing an agent's stream did: a message, or its end (message null). */
    private record Event(AgentLink link, ToController message, String endedBecause) {
    }

    /**
     * One agent's part of the run, as the controller saw it.
     *
     * @param result the agent's own figures, null when it was lost before it sent them
     * @param lost   why the agent was lost (the run is then void), or null
     */
    public record AgentRun(String name, String host, long pid, int cpus, String java, DriverResult result, String lost) {
    }

    private final LoadSpec run;
    private final String workload;
    private final String operation;
    private final Map<String, String> settings;
    private final AgentDeployer deployer;
    private final PrintStream console;
    private final int port;
    private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
    private final AtomicBoolean endWarmup = new AtomicBoolean();
    private final List<AgentLink> links = new ArrayList<>();
    private final List<AgentRun> agentRuns = new ArrayList<>();
    private volatile String stopReason;
    private volatile boolean started;
    private volatile long startedEpochMs;
    /** Measured seconds between the console's agent lines: {@link #LIVE_EVERY} but in tests. */
    int liveEvery = LIVE_EVERY;

    /**
     * @param run      the whole run's load, to be split
     * @param port     the port to listen on (0: any free one)
     * @param console  where the agents' lines go; null for quiet
     */
    public AgentsDrive(LoadSpec run, String workload, String operation, Map<String, String> settings,
                       AgentDeployer deployer, int port, PrintStream console) {
        this.run = run;
        this.workload = workload;
        this.operation = operation;
        this.settings = Map.copyOf(settings);
        this.deployer = deployer;
        this.port = port;
        this.console = console;
    }

    @Override
    public void stop(String reason) {
        stopReason = reason;
    }

    @Override
    public void endWarmup() {
        endWarmup.set(true);
    }

    /** When the agents were told to start (the controller's clock); 0 before. */
    public long startedEpochMs() {
        return startedEpochMs;
    }

    /** Each agent's part, in the split's order; complete once {@link #run} has returned. */
    public List<AgentRun> agents() {
        return List.copyOf(agentRuns);
    }

    @Override
    public DriverResult run(IntervalListener listener) throws InterruptedException {
        if (started) {
            throw new IllegalStateException("an AgentsDrive runs once");
        }
        started = true;
        Map<String, String> files;
        try {
            files = ShippedFiles.of(workload); // before any agent starts: a file too big is refused at once
        } catch (IOException e) {
            throw new AgentsFailure("cannot read the workload's files to send the agents: " + e.getMessage());
        }
        String token = HexFormat.of().formatHex(SecureRandom.getSeed(16));
        Server server = NettyServerBuilder.forAddress(new InetSocketAddress(deployer.controllerAddress(), port))
                .addService(ServerServiceDefinition.builder(AgentService.NAME)
                        .addMethod(AgentService.CONNECT, ServerCalls.asyncBidiStreamingCall(this::connected)).build())
                .permitKeepAliveTime(5, TimeUnit.SECONDS).permitKeepAliveWithoutCalls(true)
                .maxInboundMessageSize(64 << 20).build();
        try {
            try {
                server.start();
            } catch (IOException e) {
                throw new AgentsFailure("the controller cannot listen on " + deployer.controllerAddress().getHostAddress()
                        + ":" + port + ": " + e.getMessage());
            }
            deployer.deploy(new InetSocketAddress(deployer.controllerAddress(), server.getPort()), token);
            List<AgentLink> agents = awaitHellos(token);
            List<LoadSpec> parts = WorkSplit.split(run, agents.stream().mapToInt(a -> a.hello.cpus()).toArray());
            for (AgentLink a : agents) {
                a.send(new ToAgent.Plan(workload, operation, run.target(), settings, parts.get(a.index), files));
            }
            awaitReady(agents);
            return drive(agents, listener);
        } finally {
            for (AgentLink link : links) {
                link.close();
            }
            server.shutdownNow();
            deployer.close();
            server.awaitTermination(5, TimeUnit.SECONDS);
        }
    }

    /** A new stream from an agent (a gRPC thread): everything it says goes to the run thread's queue. */
    private StreamObserver<ToController> connected(StreamObserver<ToAgent> out) {
        AgentLink link = new AgentLink(out);
        return new StreamObserver<>() {
            @Override
            public void onNext(ToController message) {
                events.add(new Event(link, message, null));
            }

            @Override
            public void onError(Throwable t) {
                Status s = Status.fromThrowable(t);
                events.add(new Event(link, null, s.getCode() + (s.getDescription() == null ? "" : " " + s.getDescription())));
            }

            @Override
            public void onCompleted() {
                events.add(new Event(link, null, "it closed its stream"));
            }
        };
    }

    /** Waits until every agent the deployer started has said hello with the token; one line if one does not. */
    private List<AgentLink> awaitHellos(String token) throws InterruptedException {
        List<String> names = deployer.names();
        AgentLink[] byIndex = new AgentLink[names.size()];
        int connected = 0;
        long deadline = System.nanoTime() + CONNECT.toNanos();
        while (connected < names.size()) {
            checkStopped("before the agents connected");
            for (int i = 0; i < names.size(); i++) {
                String why = byIndex[i] == null ? deployer.ended(names.get(i)) : null;
                if (why != null) {
                    throw new AgentsFailure("agent " + names.get(i) + " could not start: " + why);
                }
            }
            if (System.nanoTime() > deadline) {
                List<String> missing = new ArrayList<>();
                for (int i = 0; i < names.size(); i++) {
                    if (byIndex[i] == null) {
                        missing.add(names.get(i));
                    }
                }
                throw new AgentsFailure("agent " + String.join(", ", missing) + " did not connect to the controller within "
                        + CONNECT.toSeconds() + " s; can it reach " + deployer.controllerAddress().getHostAddress() + "?");
            }
            Event e = events.poll(200, TimeUnit.MILLISECONDS);
            if (e == null) {
                continue;
            }
            if (e.message() instanceof ToController.Hello hello) {
                int i = names.indexOf(hello.name());
                if (!tokenMatches(token, hello.token()) || i < 0 || byIndex[i] != null) {
                    e.link().refuse(Status.PERMISSION_DENIED.withDescription("not an agent of this run"));
                    continue;
                }
                e.link().hello = hello;
                e.link().index = i;
                e.link().lastHeardNanos = System.nanoTime();
                byIndex[i] = e.link();
                links.add(e.link());
                connected++;
            } else if (e.link().index >= 0) {
                beforeStart(e);
            } else if (e.message() != null) {
                e.link().refuse(Status.PERMISSION_DENIED.withDescription("an agent says hello first"));
            }
        }
        return List.of(byIndex);
    }

    /** Waits until every agent has taken its plan (the barrier: nobody starts before all are ready). */
    private void awaitReady(List<AgentLink> agents) throws InterruptedException {
        long deadline = System.nanoTime() + READY.toNanos();
        while (agents.stream().anyMatch(a -> !a.ready)) {
            checkStopped("before the agents were ready");
            if (System.nanoTime() > deadline) {
                throw new AgentsFailure("agent " + agents.stream().filter(a -> !a.ready).map(AgentLink::name).toList()
                        + " did not take its plan within " + READY.toSeconds() + " s");
            }
            Event e = events.poll(200, TimeUnit.MILLISECONDS);
            if (e == null) {
                continue;
            }
            if (e.message() instanceof ToController.Ready && e.link().index >= 0) {
                e.link().ready = true;
            } else if (e.link().index >= 0) {
                beforeStart(e);
            } else {
                e.link().refuse(Status.PERMISSION_DENIED.withDescription("not an agent of this run"));
            }
        }
    }

    /** Before the start, an agent that fails or goes away fails the run in one line. */
    private static void beforeStart(Event e) {
        if (e.message() instanceof ToController.Failed failed) {
            throw new AgentsFailure("agent " + e.link().name() + ": " + failed.reason());
        }
        if (e.message() == null) {
            throw new AgentsFailure("agent " + e.link().name() + " went away before the start: " + e.endedBecause());
        }
    }

    private void checkStopped(String when) {
        if (stopReason != null) {
            throw new AgentsFailure("the run was stopped " + when + " (" + stopReason + ")");
        }
    }

    private DriverResult drive(List<AgentLink> agents, IntervalListener listener) throws InterruptedException {
        IntervalMerge merge = new IntervalMerge(agents.size(), listener);
        Map<AgentLink, Long> offsets = new LinkedHashMap<>();
        startedEpochMs = System.currentTimeMillis();
        for (AgentLink a : agents) {
            // the agent's clock onto the controller's, within the hello's one-way delay
            offsets.put(a, System.currentTimeMillis() - a.hello.epochMs());
            a.lastHeardNanos = System.nanoTime();
            a.send(new ToAgent.Start());
        }
        String voided = null;
        boolean stopSent = false;
        long finishDeadline = Long.MAX_VALUE;
        int measured = 0;
        while (agents.stream().anyMatch(a -> a.result == null && a.lost == null)) {
            long now = System.nanoTime();
            if (now > finishDeadline) {
                for (AgentLink a : agents) {
                    if (a.result == null && a.lost == null) {
                        a.lost = "no result within " + FINISH.toSeconds() + " s of the stop";
                        merge.ended(a.index);
                    }
                }
                break;
            }
            Event e = events.poll(200, TimeUnit.MILLISECONDS);
            if (e != null && e.link().index < 0) {
                e.link().refuse(Status.PERMISSION_DENIED.withDescription("the run has started"));
            } else if (e != null) {
                AgentLink a = e.link();
                a.lastHeardNanos = now;
                if (e.message() instanceof ToController.Report r) {
                    double cpuDelta = r.cpuSeconds() - a.cpuSeconds;
                    a.lastCpuShare = cpuDelta / r.interval().seconds();
                    a.cpuSeconds = r.cpuSeconds();
                    a.gcPauseMs = r.gcPauseMs();
                    merge.offer(a.index, r.index(), DriverResults.shifted(r.interval(), offsets.get(a)));
                    if (r.interval().phase() == Phase.MEASURE) {
                        a.lastMeasuredRequests = r.interval().successes() + r.interval().errorCount();
                        a.lastMeasuredSeconds = r.interval().seconds();
                        a.lastSaturation = LoadDriver.saturation(run.openModel(), a.hello.cpus(), cpuDelta,
                                r.interval().seconds(), r.interval().lag());
                        if (a.index == 0 && ++measured % liveEvery == 0) {
                            live(agents);
                        }
                    }
                } else if (e.message() instanceof ToController.Finished f) {
                    a.result = DriverResults.shifted(f.result(), offsets.get(a));
                    merge.ended(a.index);
                } else if (e.message() instanceof ToController.Failed f) {
                    a.lost = "failed: " + f.reason();
                } else if (e.message() == null && a.result == null) {
                    a.lost = "lost: " + e.endedBecause();
                }
                if (a.lost != null && a.result == null) {
                    merge.ended(a.index);
                    voided = voided != null ? voided : "agent " + a.name() + " " + a.lost;
                }
            }
            for (AgentLink a : agents) {
                if (a.result == null && a.lost == null && now - a.lastHeardNanos > SILENCE.toNanos()) {
                    a.lost = "silent for " + SILENCE.toSeconds() + " s";
                    merge.ended(a.index);
                    voided = voided != null ? voided : "agent " + a.name() + " " + a.lost;
                }
            }
            if (endWarmup.getAndSet(false)) {
                agents.forEach(a -> a.send(new ToAgent.EndWarmup()));
            }
            String stopping = voided != null ? VOID + voided : stopReason;
            if (stopping != null && !stopSent) {
                stopSent = true;
                finishDeadline = System.nanoTime() + FINISH.toNanos();
                agents.forEach(a -> a.send(new ToAgent.Stop(stopping)));
                if (voided != null && console != null) {
                    console.println("perflab: error: the run is void: " + voided + "; the other agents are stopped");
                }
            }
        }
        merge.flush();
        return merged(agents, merge, voided);
    }

    /** The agents' results added; void or failing the sums check, marked incomplete with the reason. */
    private DriverResult merged(List<AgentLink> agents, IntervalMerge merge, String voided) {
        List<DriverResult> results = new ArrayList<>();
        long total = 0;
        String mismatch = null;
        for (AgentLink a : agents) {
            agentRuns.add(new AgentRun(a.name(), a.hello.host(), a.hello.pid(), a.hello.cpus(), a.hello.java(), a.result,
                    a.lost));
            if (a.result != null) {
                results.add(a.result);
                total += a.result.requests();
                if (a.result.complete() && merge.measuredRequests(a.index) != a.result.requests()) {
                    mismatch = "agent " + a.name() + "'s intervals add up to " + merge.measuredRequests(a.index)
                            + " measured requests, its total says " + a.result.requests();
                }
            }
        }
        DriverResult result = results.isEmpty() ? DriverResults.none("no agent sent a result") : DriverResults.merge(results);
        if (voided != null) {
            return DriverResults.incomplete(result, VOID + voided);
        }
        if (mismatch == null && result.complete() && merge.mergedMeasuredRequests() != total) {
            mismatch = "the merged series adds up to " + merge.mergedMeasuredRequests() + " measured requests, the agents' "
                    + "totals to " + total;
        }
        return mismatch == null ? result : DriverResults.incomplete(result, "the merge does not add up: " + mismatch);
    }

    /**
     * The console's line of each agent's rate and CPU (% of one core) in its latest measured second, and whether that
     * second was the agent's own limit (the driver's saturation rule applied to the second), so that an agent that
     * cannot keep up shows while the run goes on, not only in its summary.
     */
    private void live(List<AgentLink> agents) {
        if (console != null) {
            console.println(liveLine(agents));
        }
    }

    static String liveLine(List<AgentLink> agents) {
        List<String> parts = new ArrayList<>();
        for (AgentLink a : agents) {
            parts.add(String.format(java.util.Locale.ROOT, "%s %,.0f req/s cpu %.0f%%", a.name(),
                    a.lastMeasuredRequests / Math.max(1e-3, a.lastMeasuredSeconds), 100 * a.lastCpuShare)
                    + (a.lastSaturation == null ? "" : " SATURATED (" + a.lastSaturation + ")"));
        }
        return "perflab: agents: " + String.join(", ", parts);
    }

    private static boolean tokenMatches(String expected, String given) {
        return given != null && MessageDigest.isEqual(expected.getBytes(java.nio.charset.StandardCharsets.US_ASCII),
                given.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    }
}
