package perflab.cli;

import perflab.core.config.RunConfig;
import perflab.core.workload.StackInfo;
import perflab.core.workload.Workload;
import perflab.core.workload.WorkloadSetting;
import perflab.core.workload.Workloads;
import perflab.experiment.run.SutProfiler;
import perflab.experiment.run.RunDirectory;
import perflab.experiment.run.ManagedProcess;
import perflab.experiment.run.ServerLaunch;
import perflab.experiment.run.ServerProcesses;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

@Command(name = "serve", mixinStandardHelpOptions = true,
        description = {"Only the SUT: start the workload's server with the given settings, in the foreground, until Ctrl-C.",
                "Its logs and GC log go to a results directory. Example: perflab serve WORKLOAD --port 8080 --heap 1g"})
final class ServeCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "WORKLOAD|FILE", description = "Workload to serve (see `perflab list`), or a "
            + "server file that names its workload (as --server FILE).")
    String workload;

    @Mixin
    SutOptions sut;

    /** The workload's own flags, added to this command from the workloads' declarations. */
    private final WorkloadOptions workloadOptions = WorkloadOptions.of(WorkloadSetting.Use.SERVER);

    @Option(names = "--http", paramLabel = "http1|h2c", defaultValue = "http1",
            description = "Serve HTTP/1.1 only, or h2c (HTTP/2 cleartext by prior knowledge, beside HTTP/1.1). Default: ${DEFAULT-VALUE}.")
    String http;

    @Option(names = "--out", paramLabel = "DIR", description = "Directory for the SUT's logs (default: results/<time>-<workload>-serve).")
    String out;

    @Option(names = "--listen", paramLabel = "ADDRESS", defaultValue = "127.0.0.1",
            description = "The address the SUT listens on: the loopback, or one that agents on other hosts reach. Default: ${DEFAULT-VALUE}.")
    String listen;

    /** With --profile: async-profiler attached from now until Ctrl-C; null without it or when it cannot attach. */
    private static SutProfiler profile(String event, Long jvmPid, Path dir) {
        if (event == null) {
            return null;
        }
        if (jvmPid == null) {
            System.err.println("perflab: warning: --profile: the SUT runs no JVM to profile; serving without a profile");
            return null;
        }
        try {
            return SutProfiler.start("sut", jvmPid, event, dir.resolve(".profiler"));
        } catch (java.io.IOException e) {
            System.err.println("perflab: warning: --profile: cannot profile the SUT: " + e.getMessage()
                    + "; serving without a profile");
            return null;
        }
    }

    /** {@code --listen}: an IP address of this host (a name is resolved once here). */
    static String listenAddress(String text) {
        try {
            java.net.InetAddress a = java.net.InetAddress.getByName(text.trim());
            if (!a.isAnyLocalAddress() && java.net.NetworkInterface.getByInetAddress(a) == null) {
                throw new IllegalArgumentException("--listen " + text + ": not an address of this host");
            }
            return a.getHostAddress();
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("--listen '" + text + "' is not an address: " + e.getMessage());
        }
    }

    @Override
    public Integer call() throws Exception {
        workload = sut.serverFileInPlaceOf(workload);
        Workload w = Workloads.named(workload);
        perflab.core.server.ServerFile file;
        try {
            file = sut.serverFile(w);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("--server " + sut.server + ": " + e.getMessage());
        }
        StackInfo stack = sut.stack != null ? w.stack(sut.stack) : w.defaultStack();
        if (file != null) {
            return serveFile(w, file, sut.stacksServerFile() ? stack.name() : null);
        }
        RunConfig.Sut settings = RunCommand.withWorkloadSettings(sut.toSut(8080, LoadOptions.http(http)), workloadOptions, w);
        String address = listenAddress(listen);
        if (!address.equals("127.0.0.1")) {
            Map<String, String> withHost = new java.util.LinkedHashMap<>(settings.settings());
            withHost.put("host", address); // after perflab's loopback default on the SUT's command line: it wins
            settings = settings.withSettings(withHost);
        }
        String profileEvent = sut.profile == null ? null : SutProfiler.event(sut.profile); // checked before the SUT starts
        // serve starts no load source: a server side told where one answers ({phone.port}) cannot start here
        ServerLaunch.refuseLoadSourcePorts(ServerLaunch.serverSide(settings, w),
                w.loadSources(w.resolveSettings(WorkloadSetting.Use.TRAFFIC, Map.of())));
        Path dir = out != null ? RunDirectory.explicit(Path.of(out))
                : RunDirectory.create(Perflab.resultsRoot(), w.name(), "serve", LocalDateTime.now());
        ServerLaunch launch = ServerLaunch.plan(w, stack.name(), settings, Perflab.home(), dir, sut.jfr);
        ServerProcesses server = ServerProcesses.start(launch, dir, Duration.ofSeconds(60), p -> {
                    if (!p.name().equals("sut")) {
                        System.out.printf("perflab: companion %s (pid %d) started%n", p.name(), p.pid());
                    }
                });
        String url = "http://" + (address.contains(":") ? "[" + address + "]" : address) + ":" + server.sut().port() + w.servicePath();
        return serveUntilStopped(server, launch, dir, profileEvent, w.name(), stack.name() + " stack", url);
    }

    /**
     * {@code perflab serve WORKLOAD --server FILE}: the file's server on loopback, on {@code --port} (default 8080, 0:
     * a free one) as its first port and free ones for the others, its URL as a run would target it.
     *
     * @param stack the workload's stack the file declares; null for {@code --server}'s file
     */
    private int serveFile(Workload w, perflab.core.server.ServerFile file, String stack) throws Exception {
        if (!"127.0.0.1".equals(listen)) {
            throw new IllegalArgumentException("--listen with --server: where " + file.name() + " listens is its file's "
                    + "business (its command and files)");
        }
        if (stack == null) {
            workloadOptions.refuseServerSettings(w, file);
        }
        int port = sut.port == null ? 8080 : sut.port;
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("--port must be within 0..65535, got " + port);
        }
        if (port != 0 && !perflab.core.process.LocalSockets.tcpFree(port)) {
            throw new IllegalArgumentException("port " + port + " on the loopback is in use: give the SUT another (--port 0 "
                    + "lets perflab choose one)");
        }
        sut.port = null; // the file's ports are perflab's to choose; the first one pinned below
        // the workload's settings that reach the file's companions (trade's --db-cache); the others were refused above
        RunConfig.Sut settings = sut.withServerFile(RunCommand.withWorkloadSettings(sut.toSut(0, LoadOptions.http(http)),
                workloadOptions, w), file, w);
        String profileEvent = sut.profile == null ? null : SutProfiler.event(sut.profile);
        Path dir = out != null ? RunDirectory.explicit(Path.of(out))
                : RunDirectory.create(Perflab.resultsRoot(), w.name(), "serve", LocalDateTime.now());
        ServerLaunch launch = ServerLaunch.plan(w, stack, settings, Perflab.home(), dir, sut.jfr);
        java.util.List<String> ports = launch.sut().sut().program().ports();
        Map<String, Map<String, Integer>> pinned = port == 0 || ports.isEmpty() ? Map.of()
                : Map.of(launch.sut().name(), Map.of(ports.get(0), port));
        System.out.printf("perflab: starting %s (%s); its output in %s%n", file.name(), file.source(), dir);
        ServerProcesses server = ServerProcesses.start(launch, dir, Duration.ofSeconds(60), pinned, p -> { });
        String url = server.targetUrl(w.servicePath());
        return serveUntilStopped(server, launch, dir, profileEvent, w.name(), file.name(), url);
    }

    /** Serves until Ctrl-C or until a process of the server side exits: 0 when stopped, 1 when one exited. */
    private int serveUntilStopped(ServerProcesses server, ServerLaunch launch, Path dir, String profileEvent,
                                  String workloadName, String serverName, String url) throws InterruptedException {
        String jfrFile = launch.sut().sut().jfr(); // where the kind of server puts it
        ManagedProcess process = server.sut();
        CountDownLatch done = new CountDownLatch(1);
        SutProfiler profiler = profile(profileEvent, server.jvmPids().get(process.name()), dir);
        Shutdown.onSignal(() -> {
            if (profiler != null) { // from READY to Ctrl-C: serve has no measured window of its own
                try {
                    profiler.stop(dir);
                    System.out.println("perflab: " + profileEvent + " profile of the SUT: " + dir.resolve(SutProfiler.htmlFile("sut")));
                } catch (java.io.IOException e) {
                    System.err.println("perflab: warning: --profile: the SUT's profile could not be written: " + e.getMessage());
                }
            }
            server.stop(Duration.ofSeconds(15));
            done.countDown();
        });
        server.onUnexpectedExit((name, code) -> {
            System.err.println("perflab: " + ManagedProcess.label(name) + " exited (status " + code + "); the logs are in " + dir);
            done.countDown();
        });
        System.out.printf("perflab: serving %s (%s, pid %d) at %s%nperflab: logs in %s%s; Ctrl-C to stop%n",
                workloadName, serverName, process.pid(), url, dir,
                jfrFile != null ? " (flight recording: " + jfrFile + " at stop)" : "");
        done.await();
        if (process.alive()) {
            server.stop(Duration.ofSeconds(15)); // a companion went: the SUT cannot serve without it
            return 1;
        }
        return process.alive() ? 0 : (process.exitCode() == null || process.exitCode() == 0 ? 0 : 1);
    }
}
