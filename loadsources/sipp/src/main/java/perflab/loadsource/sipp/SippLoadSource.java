package perflab.loadsource.sipp;

import perflab.core.load.LoadSource;
import perflab.core.load.LoadSourceKind;
import perflab.core.load.LoadSourcePlan;
import perflab.core.process.LocalSockets;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.UnaryOperator;

/**
 * SIPp (Debian's sip-tester) as a load source: the {@link SippLoad}s a workload declares, each checked before
 * anything starts (SIPp installed, the scenario built in or a file under perflab's home, the target host:port), then
 * started on a UDP port chosen here with its statistics written into the run directory, and read back
 * ({@link SippRun}).
 */
public final class SippLoadSource implements LoadSourceKind {
    /** A SIPp that only answers stops at this many calls: never, in a run. */
    private static final long ANSWERER_MAX_CALLS = 1_000_000_000L;
    /** SIPp writes its -trace_rtt file every this many calls (and at exit). */
    private static final int RTT_FLUSH_CALLS = 100;
    /** Set (to anything) in perflab's environment, each SIPp peer writes every message it sends and receives to {@code <run>/<name>.messages.log}. */
    static final String TRACE_MESSAGES = "PERFLAB_SIPP_TRACE_MESSAGES";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(20);

    @Override
    public String name() {
        return SippLoad.KIND;
    }

    @Override
    public LoadSourcePlan plan(LoadSource source, Path perflabHome) {
        if (!(source instanceof SippLoad load)) {
            throw new IllegalArgumentException("load source " + source.name() + " of kind " + source.kind()
                    + " is not a SIPp load");
        }
        String executable = SippCommand.installedExecutable().map(Path::toString).orElseThrow(() ->
                new IllegalArgumentException("this workload runs SIPp (load " + load.name()
                        + ") and sipp is not installed: install the Debian package sip-tester"));
        SippScenario scenario = SippScenario.BUILT_IN.contains(load.scenario()) ? SippScenario.builtIn(load.scenario())
                : scenarioFile(load, perflabHome);
        String host = null;
        String port = null;
        if (load.placesCalls()) {
            int colon = load.target().lastIndexOf(':');
            if (colon <= 0 || colon == load.target().length() - 1) {
                throw new IllegalArgumentException("SIPp load " + load.name() + ": target '" + load.target()
                        + "' is not host:port (127.0.0.1:{sut.sip})");
            }
            host = load.target().substring(0, colon);
            port = load.target().substring(colon + 1);
        }
        String targetHost = host;
        String targetPort = port;
        return (runDir, ports, bound) -> start(load, scenario, executable, targetHost, targetPort, runDir, ports, bound);
    }

    private static SippScenario scenarioFile(SippLoad load, Path perflabHome) {
        try {
            return SippScenario.file(perflabHome.resolve(load.scenario()));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("SIPp load " + load.name() + ": " + e.getMessage());
        }
    }

    private static SippRun start(SippLoad load, SippScenario scenario, String executable, String host, String port,
                                 Path runDir, UnaryOperator<String> ports, Duration bound) throws IOException {
        long seconds = Math.max(1, bound.toSeconds());
        SippCommand.Builder b = SippCommand.builder(scenario).executable(executable).localPort(LocalSockets.freeUdpPort())
                .timeout(Duration.ofSeconds(seconds)).files(runDir, load.name())
                // every response time, so the window has percentiles, not only SIPp's per-period means
                .traceResponseTimes(RTT_FLUSH_CALLS)
                .extra(load.extra().stream().map(ports).toArray(String[]::new));
        if (System.getenv(TRACE_MESSAGES) != null) {
            // diagnosis only (every message written out costs SIPp): what each peer sent and received, to read
            // around a fail-over's kill or a failed call
            b.extra("-trace_msg", "-message_file", runDir.toAbsolutePath().resolve(load.name() + ".messages.log").toString());
        }
        if (load.placesCalls()) {
            int targetPort;
            try {
                targetPort = Integer.parseInt(ports.apply(port));
            } catch (NumberFormatException e) {
                throw new IOException("SIPp load " + load.name() + ": target port '" + port + "' is not a number");
            }
            // -m bounds the work: every call the rate can place in the bound, and a little more
            b.target(host, targetPort).rate(load.callsPerSecond())
                    .maxCalls((long) Math.ceil(load.callsPerSecond() * seconds * 1.1) + 1);
        } else {
            b.maxCalls(ANSWERER_MAX_CALLS);
        }
        if (load.maxOpenCalls() > 0) {
            b.callLimit(load.maxOpenCalls());
        }
        if (load.recvTimeout() != null) {
            b.recvTimeout(load.recvTimeout());
        }
        SippProcess process = SippProcess.start(b.build(), runDir, load.name());
        try {
            process.awaitStarted(START_TIMEOUT);
        } catch (IOException | RuntimeException e) {
            process.stop(Duration.ZERO);
            throw e;
        }
        return new SippRun(process);
    }
}
