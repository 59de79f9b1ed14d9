package perflab.agents;

import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import perflab.agents.wire.AgentService;
import perflab.agents.wire.ToAgent;
import perflab.agents.wire.ToController;
import perflab.core.os.ProcessCpu;
import perflab.core.traffic.Traffic;
import perflab.core.workload.TrafficOptions;
import perflab.core.workload.Workloads;
import perflab.driver.LoadDriver;
import perflab.driver.Phase;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * One agent: dials the controller, says hello with the run's token, takes its plan, builds the workload's traffic and
 * a {@link LoadDriver} for its share, says ready, drives when told to start, reports every interval as it is cut,
 * and ends with its result. Its life is the stream's: when the controller closes it or goes away (a kill, a lost
 * host: gRPC's keepalive notices within seconds), the driver stops and the agent exits. Controller messages are
 * handled in order on one thread; the driver runs on its own.
 */
final class Agent {
    /** How long the agent waits for the controller to close the stream after its result went out. */
    private static final long CLOSE_WAIT_SECONDS = 10;

    private final String name;
    private final String token;
    private final ExecutorService control = Executors.newSingleThreadExecutor(r -> daemon(r, "perflab-agent-control"));
    private final CountDownLatch closed = new CountDownLatch(1);
    private StreamObserver<ToController> out;
    private volatile LoadDriver driver;
    private volatile String closedBecause;
    private volatile boolean failed;
    private final int[] nextIndex = new int[Phase.values().length];
    private ProcessCpu.Sample cpuAtStart;
    /** The folder the plan's files were written to, or null. */
    private volatile Path shipped;

    Agent(String name, String token) {
        this.name = name;
        this.token = token;
    }

    /** Runs until the stream ends; returns the process's exit status (0 when its result went out). */
    int run(String host, int port) throws InterruptedException {
        ManagedChannel channel = NettyChannelBuilder.forAddress(host, port).usePlaintext()
                .keepAliveTime(10, TimeUnit.SECONDS).keepAliveTimeout(10, TimeUnit.SECONDS)
                .maxInboundMessageSize(64 << 20).build();
        try {
            out = ClientCalls.asyncBidiStreamingCall(channel.newCall(AgentService.CONNECT, CallOptions.DEFAULT),
                    new StreamObserver<>() {
                        @Override
                        public void onNext(ToAgent message) {
                            control.execute(() -> handle(message));
                        }

                        @Override
                        public void onError(Throwable t) {
                            end("the controller's stream failed: " + io.grpc.Status.fromThrowable(t).getDescription());
                        }

                        @Override
                        public void onCompleted() {
                            end(null);
                        }
                    });
            send(new ToController.Hello(token, name, hostName(), ProcessHandle.current().pid(),
                    Runtime.getRuntime().availableProcessors(), Runtime.version().toString(),
                    System.currentTimeMillis()));
            closed.await();
            if (closedBecause != null) {
                System.err.println("perflab agent " + name + ": " + closedBecause);
                return 1;
            }
            return failed ? 1 : 0;
        } finally {
            control.shutdownNow();
            ShippedFiles.delete(shipped);
            // gracefully first: a last message (a failure's reason) must reach the controller before the connection goes
            if (!channel.shutdown().awaitTermination(5, TimeUnit.SECONDS)) {
                channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            }
        }
    }

    /** The stream ended: stop driving, if driving, and let {@link #run} return. */
    private void end(String because) {
        LoadDriver d = driver;
        if (d != null) {
            d.stop(because == null ? "the controller ended the run" : because);
        }
        if (because != null && closed.getCount() > 0) {
            closedBecause = because;
        }
        closed.countDown();
    }

    private void handle(ToAgent message) {
        try {
            if (message instanceof ToAgent.Plan plan) {
                String workload = plan.workload();
                if (!plan.files().isEmpty()) {
                    shipped = Files.createTempDirectory("perflab-agent-files-");
                    workload = ShippedFiles.unpack(plan.files(), plan.workload(), shipped).toString();
                }
                Traffic traffic = Workloads.named(workload).traffic(new TrafficOptions(plan.operation(),
                        plan.target(), plan.load().seed(), plan.settings(), plan.load().share().trafficPart()));
                // the workload has read its files whole: they go now, not at exit (a halted agent never gets there)
                ShippedFiles.delete(shipped);
                shipped = null;
                driver = new LoadDriver(plan.load(), traffic);
                send(new ToController.Ready());
            } else if (message instanceof ToAgent.Start) {
                Thread driving = new Thread(this::drive, "perflab-agent-drive");
                driving.setDaemon(true);
                driving.start();
            } else if (message instanceof ToAgent.EndWarmup) {
                driver.endWarmup();
            } else if (message instanceof ToAgent.Stop stop) {
                LoadDriver d = driver;
                if (d != null) {
                    d.stop(stop.reason());
                }
            }
        } catch (RuntimeException e) {
            fail(e.getMessage() == null ? e.toString() : e.getMessage());
        } catch (java.io.IOException e) {
            fail("cannot write the workload's files: " + e.getMessage());
        }
    }

    private void drive() {
        try {
            cpuAtStart = ProcessCpu.self();
            var result = driver.run(interval -> send(new ToController.Report(nextIndex[interval.phase().ordinal()]++,
                    interval, ProcessCpu.secondsBetween(cpuAtStart, ProcessCpu.self()), gcPauseMs())));
            send(new ToController.Finished(result));
            synchronized (this) {
                out.onCompleted();
            }
            // the controller closes its side once it has every agent's result; it may be gone already
            if (!closed.await(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS)) {
                closed.countDown();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closed.countDown();
        } catch (RuntimeException e) {
            fail("the driver failed: " + e);
        }
    }

    private void fail(String reason) {
        failed = true;
        send(new ToController.Failed(reason));
        synchronized (this) {
            out.onCompleted();
        }
        System.err.println("perflab agent " + name + ": " + reason);
        try {
            // the controller closes the stream once it has read the reason; it may be gone already
            closed.await(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        closed.countDown();
    }

    /** gRPC's outbound stream is not thread-safe: the control thread and the driver's ticker both send. */
    private synchronized void send(ToController message) {
        try {
            out.onNext(message);
        } catch (RuntimeException e) {
            end("could not send to the controller: " + e.getMessage());
        }
    }

    private static double gcPauseMs() {
        long ms = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            ms += Math.max(0, gc.getCollectionTime());
        }
        return ms;
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            return "unknown";
        }
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }
}
