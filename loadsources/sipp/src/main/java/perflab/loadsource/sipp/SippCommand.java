package perflab.loadsource.sipp;

import java.io.File;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A SIPp command line that perflab can own: foreground, no keyboard ({@code -nostdin}), bounded by a call count
 * ({@code -m}) and a global timeout, statistics every second into a file perflab names ({@code -trace_stat -fd 1
 * -stf}), unexpected messages into an error file, and a local port perflab chose. Targets are loopback or the
 * 198.18.0.0/15 test network only: perflab sends load nowhere else.
 */
public final class SippCommand {
    /** Options perflab sets itself, or that would take the process out of perflab's hands or break the parsing. */
    private static final Set<String> OWNED = Set.of("-bg", "-sn", "-sf", "-i", "-p", "-r", "-l", "-m", "-timeout",
            "-trace_stat", "-stf", "-fd", "-stat_delimiter", "-periodic_rtd", "-trace_rtt", "-rtt_freq",
            "-trace_err", "-error_file", "-nostdin", "-recv_timeout");
    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

    private final List<String> arguments;
    private final SippScenario scenario;
    private final Path statisticsFile;
    private final Path errorFile;
    private final boolean traceResponseTimes;
    private final Duration timeout;
    private final int localPort;

    private SippCommand(Builder b) {
        this.localPort = b.localPort;
        this.scenario = b.scenario;
        this.statisticsFile = b.statisticsFile;
        this.errorFile = b.errorFile;
        this.traceResponseTimes = b.rttFrequency > 0;
        this.timeout = b.timeout;
        List<String> a = new ArrayList<>();
        a.add(b.executable);
        if (scenario.builtIn() != null) {
            a.addAll(List.of("-sn", scenario.builtIn()));
        } else {
            a.addAll(List.of("-sf", scenario.file().toString()));
        }
        if (b.targetHost != null) {
            a.add(hostPort(b.targetHost, b.targetPort));
        }
        a.addAll(List.of("-i", b.localAddress, "-p", Integer.toString(b.localPort)));
        if (b.rate > 0) {
            a.addAll(List.of("-r", rateText(b.rate)));
        }
        if (b.callLimit > 0) {
            a.addAll(List.of("-l", Integer.toString(b.callLimit)));
        }
        a.addAll(List.of("-m", Long.toString(b.maxCalls), "-timeout", b.timeout.toSeconds() + "s"));
        if (b.recvTimeout != null) {
            a.addAll(List.of("-recv_timeout", b.recvTimeout.toMillis() + "ms"));
        }
        // -fd 1: one row a second, as fine as the driver's ticks; the period is the row's own (CurrentTime - previous)
        a.addAll(List.of("-trace_stat", "-fd", "1", "-stf", statisticsFile.toString()));
        if (traceResponseTimes) {
            a.addAll(List.of("-trace_rtt", "-rtt_freq", Integer.toString(b.rttFrequency)));
        }
        a.addAll(List.of("-trace_err", "-error_file", errorFile.toString()));
        a.add("-nostdin"); // perflab owns the process: no keyboard, stopped by signals
        a.addAll(b.extra);
        this.arguments = List.copyOf(a);
    }

    public static Builder builder(SippScenario scenario) {
        return new Builder(scenario);
    }

    /** The command line, executable first. */
    public List<String> arguments() {
        return arguments;
    }

    public SippScenario scenario() {
        return scenario;
    }

    /** Where SIPp writes its -trace_stat rows (absolute). */
    public Path statisticsFile() {
        return statisticsFile;
    }

    /** Where SIPp writes unexpected messages and aborted calls (absolute). */
    public Path errorFile() {
        return errorFile;
    }

    /** Whether every response time is traced; SIPp names that file itself, in its working directory. */
    public boolean tracesResponseTimes() {
        return traceResponseTimes;
    }

    /** The local port SIPp binds (-p). */
    public int localPort() {
        return localPort;
    }

    /** The -timeout: SIPp stops placing calls then, and exits once its open calls end. */
    public Duration timeout() {
        return timeout;
    }

    /** The response-time trace SIPp writes for the process {@code pid} started in {@code workingDirectory}. */
    public Optional<Path> responseTimeFile(Path workingDirectory, long pid) {
        return traceResponseTimes
                ? Optional.of(workingDirectory.toAbsolutePath().resolve(scenario.name() + "_" + pid + "_rtt.csv"))
                : Optional.empty();
    }

    /** The sipp executable on the PATH, if installed (package sip-tester). */
    public static Optional<Path> installedExecutable() {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            Path p = Path.of(dir.isEmpty() ? "." : dir, "sipp");
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    @Override
    public String toString() {
        return String.join(" ", arguments);
    }

    /**
     * Refuses any address but loopback (127.0.0.0/8, ::1, "localhost") and 198.18.0.0/15, the benchmark network
     * perflab's test namespaces use. Only literal addresses: a name would need DNS, whose answer can change.
     */
    static InetAddress allowedAddress(String what, String host) {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("the SIPp " + what + " is missing: give a loopback or 198.18.0.0/15 address");
        }
        String literal = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        InetAddress address;
        if (literal.equalsIgnoreCase("localhost")) {
            address = InetAddress.getLoopbackAddress();
        } else if (IPV4.matcher(literal).matches() || literal.contains(":")) {
            try {
                address = InetAddress.getByName(literal); // a literal: no lookup
            } catch (UnknownHostException e) {
                throw new IllegalArgumentException("the SIPp " + what + " '" + host + "' is not a valid IP address");
            }
        } else {
            throw new IllegalArgumentException("the SIPp " + what + " '" + host
                    + "' is a name: give an IP address (loopback or 198.18.0.0/15), names are not resolved");
        }
        if (address.isLoopbackAddress() || inBenchmarkNetwork(address)) {
            return address;
        }
        throw new IllegalArgumentException("the SIPp " + what + " " + host
                + " is not allowed: perflab sends load only to loopback or to the 198.18.0.0/15 test network");
    }

    private static boolean inBenchmarkNetwork(InetAddress a) {
        byte[] b = a.getAddress();
        return b.length == 4 && (b[0] & 0xff) == 198 && ((b[1] & 0xff) == 18 || (b[1] & 0xff) == 19);
    }

    private static String hostPort(String host, int port) {
        String h = host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
        return h + ":" + port;
    }

    private static String rateText(double rate) {
        return rate == Math.rint(rate) ? Long.toString((long) rate) : Double.toString(rate);
    }

    private static void checkPort(String what, int port) {
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("the SIPp " + what + " " + port + " is out of range: give 1-65535");
        }
    }

    /** Collects the settings; {@link #build()} checks that the command is complete and bounded. */
    public static final class Builder {
        private final SippScenario scenario;
        private String executable = "sipp";
        private String targetHost;
        private int targetPort;
        private String localAddress = "127.0.0.1";
        private int localPort;
        private double rate;
        private int callLimit;
        private long maxCalls;
        private Duration timeout;
        private Duration recvTimeout;
        private int rttFrequency;
        private Path statisticsFile;
        private Path errorFile;
        private final List<String> extra = new ArrayList<>();

        private Builder(SippScenario scenario) {
            if (scenario == null) {
                throw new IllegalArgumentException("the SIPp scenario is missing: give a built-in one (uac, uas) or a file");
            }
            this.scenario = scenario;
        }

        public Builder executable(String executable) {
            if (executable == null || executable.isBlank()) {
                throw new IllegalArgumentException("the sipp executable is blank: give its path or 'sipp'");
            }
            this.executable = executable;
            return this;
        }

        /** The remote SIP end point to call (SIPp's positional remote_host:port). */
        public Builder target(String host, int port) {
            allowedAddress("target", host);
            checkPort("target port", port);
            this.targetHost = host;
            this.targetPort = port;
            return this;
        }

        /** The local address SIPp binds and puts in Via/Contact (-i); 127.0.0.1 unless given. */
        public Builder localAddress(String address) {
            allowedAddress("local address", address);
            this.localAddress = address.startsWith("[") ? address.substring(1, address.length() - 1) : address;
            return this;
        }

        /** The local port perflab chose (-p); SIPp must not pick one, or nobody could tell others where it is. */
        public Builder localPort(int port) {
            checkPort("local port", port);
            this.localPort = port;
            return this;
        }

        /** New calls per second (-r); SIPp's default is 10. */
        public Builder rate(double callsPerSecond) {
            if (!(callsPerSecond > 0) || Double.isInfinite(callsPerSecond)) {
                throw new IllegalArgumentException("the SIPp call rate " + callsPerSecond + " must be a positive number of calls per second");
            }
            this.rate = callsPerSecond;
            return this;
        }

        /** Most calls open at once (-l); SIPp's default is 3 x call length x rate. */
        public Builder callLimit(int calls) {
            if (calls < 1) {
                throw new IllegalArgumentException("the SIPp call limit " + calls + " must be at least 1");
            }
            this.callLimit = calls;
            return this;
        }

        /** SIPp exits after this many calls (-m): the bound on the work. */
        public Builder maxCalls(long calls) {
            if (calls < 1) {
                throw new IllegalArgumentException("the SIPp total call count (-m) " + calls + " must be at least 1");
            }
            this.maxCalls = calls;
            return this;
        }

        /** SIPp stops placing calls after this (-timeout, whole seconds) and exits when its open calls end. */
        public Builder timeout(Duration timeout) {
            if (timeout == null || timeout.toSeconds() < 1) {
                throw new IllegalArgumentException("the SIPp -timeout " + timeout + " must be at least 1 s (SIPp counts it in whole seconds)");
            }
            this.timeout = timeout;
            return this;
        }

        /** A call that waits longer than this for a message fails (-recv_timeout): bounds calls to a silent peer. */
        public Builder recvTimeout(Duration timeout) {
            if (timeout == null || timeout.toMillis() < 1) {
                throw new IllegalArgumentException("the SIPp -recv_timeout " + timeout + " must be at least 1 ms");
            }
            this.recvTimeout = timeout;
            return this;
        }

        /** Trace every response time (-trace_rtt), written every {@code everyCalls} calls (-rtt_freq) and at exit. */
        public Builder traceResponseTimes(int everyCalls) {
            if (everyCalls < 1) {
                throw new IllegalArgumentException("the SIPp -rtt_freq " + everyCalls + " must be at least 1 call");
            }
            this.rttFrequency = everyCalls;
            return this;
        }

        /** The statistics file (-stf) and the error file (-error_file) go into {@code dir} as {@code <name>.stat.csv}, {@code <name>.errors.log}. */
        public Builder files(Path dir, String name) {
            if (dir == null || name == null || !name.matches("[A-Za-z0-9._-]+")) {
                throw new IllegalArgumentException("the SIPp instance name '" + name + "' must be letters, digits, '.', '_' or '-'");
            }
            Path d = dir.toAbsolutePath().normalize();
            this.statisticsFile = d.resolve(name + ".stat.csv");
            this.errorFile = d.resolve(name + ".errors.log");
            return this;
        }

        /** Further SIPp options a scenario needs (-aa, -inf, -key, -t ...); none that perflab sets or that detach SIPp. */
        public Builder extra(String... options) {
            for (String o : options) {
                if (o == null || OWNED.contains(o)) {
                    throw new IllegalArgumentException("the SIPp option " + o + " cannot be given as an extra: perflab sets it itself or it would "
                            + ("-bg".equals(o) ? "detach SIPp from perflab" : "break reading its statistics"));
                }
                extra.add(o);
            }
            return this;
        }

        public SippCommand build() {
            if (localPort == 0) {
                throw new IllegalArgumentException("the SIPp local port (-p) is missing: perflab chooses it so that others can reach this instance");
            }
            if (maxCalls == 0) {
                throw new IllegalArgumentException("the SIPp total call count (-m) is missing: every SIPp instance must end by itself");
            }
            if (timeout == null) {
                throw new IllegalArgumentException("the SIPp -timeout is missing: every SIPp instance must end by itself");
            }
            if (statisticsFile == null) {
                throw new IllegalArgumentException("the SIPp statistics files are missing: call files(runDir, name)");
            }
            if (targetHost == null && scenario.placesCalls()) {
                throw new IllegalArgumentException("the SIPp scenario " + scenario.name() + " places calls: give it a target (host and port)");
            }
            return new SippCommand(this);
        }
    }
}
