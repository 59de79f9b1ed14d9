package perflab.experiment.run;

import perflab.agents.AgentsSpec;
import perflab.core.config.RunConfig;
import perflab.core.traffic.Traffic;
import perflab.core.workload.ServerSide;
import perflab.core.workload.SutInstances;
import perflab.core.workload.TrafficOptions;
import perflab.core.workload.Workload;
import perflab.core.workload.WorkloadSetting;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * What is settled about a run before anything starts: every check a bad setting must fail at once (so it costs no
 * SUT start, and an experiment's bad configuration no runs), the run's target, its traffic, the workload's run files,
 * and the bounds a process started for the run gets (how long a load source can be needed).
 */
public final class RunPreflight {
    private RunPreflight() {
    }

    /**
     * Checks everything about a run that can be checked before anything starts, so that a bad setting costs no
     * SUT start (and an experiment's bad configuration no runs): the operation, the traffic built with its
     * settings (sizes checked), the workload's server side laid out from its settings, its load sources, and every
     * port reference between them ({@code {sut.sip}}, {@code {phone.port}}).
     */
    public static LoadSources check(RunConfig config, Workload workload, Path perflabHome) {
        workload.operation(config.operation());
        URI target = config.target() != null ? serviceUri(config.target(), workload)
                : URI.create("http://127.0.0.1:" + (config.sut().port() > 0 ? config.sut().port() : 8080) + workload.servicePath());
        Traffic traffic = buildTraffic(config, workload, target);
        if (config.load().rate() > 0) {
            // traffic that paces its users checks them against the rate (enough users) before anything starts
            traffic.agenda(config.load().rate(), "poisson".equals(config.load().schedule()));
        }
        Set<String> processes = new HashSet<>();
        ServerSide side = null;
        if (config.target() == null && config.sut().server() != null
                && !ServerLaunch.isStacksFile(workload, config.stack(), config.sut(), perflabHome)) {
            processes.add(SutInstances.SUT); // a server file's server, and of the workload's companions those it asks for
            config.sut().server().requireSettings(config.sut().settings()); // before anything starts
            ServerLaunch.serverFileCompanions(workload, config.sut()).forEach(c -> processes.add(c.name()));
        } else if (config.target() == null) {
            side = ServerLaunch.serverSide(config.sut(), workload);
            ServerLaunch.checkStackFile(workload.stack(config.stack()), config.sut(), side, workload);
            side.companions().forEach(c -> processes.add(c.name()));
            processes.addAll(SutInstances.names(config.sut().instances()));
        }
        LoadSources loads = LoadSources.plan(workload.loadSources(trafficSettings(config, workload)), perflabHome, processes);
        if (config.agents() != null) {
            checkSplittable(config, workload, target, loads);
        }
        if (side != null) {
            ServerLaunch.checkReferences(side, config.sut().instances(), loads.declared());
        } else if (loads.hasAnswerers()) {
            // the server side perflab does not start, as the workload would lay it out by default: told nothing
            ServerLaunch.refuseLoadSourcePorts(ServerLaunch.serverSide(config.sut(), workload), loads.declared());
        }
        return loads;
    }

    /**
     * A run from agents splits the driver's clients and rate, and traffic that deals out users of its own takes each
     * agent's block of them ({@code TrafficPart}). Load sources that only answer (voicemail's phones) run beside the
     * server side as on one machine, answering every agent's users; sources that load the SUT are load of their own,
     * not split yet. Each agent needs a client.
     */
    private static void checkSplittable(RunConfig config, Workload workload, URI target, LoadSources loads) {
        AgentsSpec agents = AgentsSpec.of(config.agents());
        RunConfig.Load load = config.load();
        if (loads.hasLoaders()) {
            throw new IllegalArgumentException("--agents: " + workload.name() + " runs " + LoadSources.label(loads.firstLoader())
                    + ", load of its own beside its HTTP traffic, which agents do not split yet; drive it without --agents");
        }
        if (agents.remote() && target.getHost() != null && isLoopback(target.getHost())) {
            throw new IllegalArgumentException("--agents " + config.agents().spec() + ": agents on other hosts cannot reach "
                    + target.getHost() + "; serve the SUT on an address they reach (perflab serve --listen ADDRESS) and "
                    + "use `perflab drive --target`");
        }
        if (load.clients() < agents.count()) {
            throw new IllegalArgumentException("--agents " + config.agents().spec() + ": --clients " + load.clients()
                    + " is fewer than the agents; each agent needs a client at least");
        }
    }

    private static boolean isLoopback(String host) {
        try {
            return java.net.InetAddress.getByName(host).isLoopbackAddress();
        } catch (IOException e) {
            return false;
        }
    }

    /** The workload's files for the run's processes, before any starts; an IOException is the run's failure. */
    static void writeRunFiles(Workload workload, RunConfig config, Path runDir) throws RunFailure {
        try {
            workload.writeRunFiles(runDir, trafficSettings(config, workload), config.load().seed());
        } catch (IOException | java.io.UncheckedIOException e) {
            throw new RunFailure(workload.name() + " could not write its run files into " + runDir + ": " + e.getMessage());
        }
    }

    /**
     * How long load sources that answer can be needed (SIPp's own -timeout): they start before the server side, so its
     * longest start (each process waits for READY an hour at most) comes on top of the longest drive.
     */
    static Duration answererBound(RunConfig.Load load, ServerLaunch launch) {
        Duration serverStart = launch == null ? Duration.ZERO : ManagedProcess.LONGEST_START.multipliedBy(launch.steps().size());
        return longestDrive(load).plus(serverStart);
    }

    /**
     * The longest a drive can last, a bound a load source's tool gets as its own time limit so that it ends even if
     * perflab dies:
     * the warm-up's maximum, the measured window (an hour when the window is a request count) and a margin.
     */
    static Duration longestDrive(RunConfig.Load load) {
        Duration window = load.duration() != null ? load.duration() : Duration.ofHours(1);
        Duration warmup = load.warmupRequests() > 0 ? Duration.ofHours(1) : load.warmup();
        return window.plus(warmup).plusMinutes(2);
    }

    /** The run's traffic; built once before anything starts (with a provisional target) to check its settings. */
    static Traffic buildTraffic(RunConfig config, Workload workload, URI target) {
        return workload.traffic(new TrafficOptions(config.operation(), target, config.load().seed(),
                trafficSettings(config, workload)));
    }

    static Map<String, String> trafficSettings(RunConfig config, Workload workload) {
        return workload.resolveSettings(WorkloadSetting.Use.TRAFFIC, config.load().extra());
    }

    /** A bare http://host:port target gets the workload's service path. */
    static URI serviceUri(String target, Workload workload) {
        URI uri;
        try {
            uri = URI.create(target);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--target: '" + target + "' is not a URL; use e.g. http://127.0.0.1:8080");
        }
        if (!"http".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null) {
            throw new IllegalArgumentException("--target: '" + target + "' is not an http:// URL with a host; use e.g. http://127.0.0.1:8080");
        }
        if (uri.getPath() == null || uri.getPath().isEmpty() || uri.getPath().equals("/")) {
            return URI.create("http://" + uri.getRawAuthority() + workload.servicePath());
        }
        return uri;
    }

    /** Fails fast, in one line, on a target that is not listening. */
    static void checkReachable(URI target) throws RunFailure {
        int port = target.getPort() > 0 ? target.getPort() : 80;
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(target.getHost(), port), 3000);
        } catch (IOException e) {
            throw new RunFailure("cannot connect to " + target.getHost() + ":" + port + " (" + e.getMessage()
                    + "); is the server running?");
        }
    }
}
