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
    @Parameters(index = "0", paramLabel = "WORKLOAD", description = "Workload to serve (see `perflab list`).")
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
    private static SutProfiler profile(String event, ManagedProcess process, Path dir) {
        if (event == null) {
            return null;
        }
        try {
            return SutProfiler.start("sut", process.pid(), event, dir.resolve(".profiler"));
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
        if (sut.server != null || sut.set != null) {
            throw new IllegalArgumentException("perflab serve starts the workload's own stack; a server file's server "
                    + "is started by perflab run --server FILE (or by you, then perflab drive --target URL)");
        }
        Workload w = Workloads.named(workload);
        StackInfo stack = sut.stack != null ? w.stack(sut.stack) : w.stacks().get(0);
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
        String jfrFile = launch.sut().sut().jfr(); // where the kind of server puts it
        ServerProcesses server = ServerProcesses.start(launch, dir, Duration.ofSeconds(60), p -> {
                    if (!p.name().equals("sut")) {
                        System.out.printf("perflab: companion %s (pid %d) started%n", p.name(), p.pid());
                    }
                });
        ManagedProcess process = server.sut();
        CountDownLatch done = new CountDownLatch(1);
        SutProfiler profiler = profile(profileEvent, process, dir);
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
        String url = "http://" + (address.contains(":") ? "[" + address + "]" : address) + ":" + process.port() + w.servicePath();
        System.out.printf("perflab: serving %s (%s stack, pid %d) at %s%nperflab: logs in %s%s; Ctrl-C to stop%n",
                w.name(), stack.name(), process.pid(), url, dir,
                jfrFile != null ? " (flight recording: " + jfrFile + " at stop)" : "");
        done.await();
        if (process.alive()) {
            server.stop(Duration.ofSeconds(15)); // a companion went: the SUT cannot serve without it
            return 1;
        }
        return process.alive() ? 0 : (process.exitCode() == null || process.exitCode() == 0 ? 0 : 1);
    }
}
