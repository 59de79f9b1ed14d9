package perflab.core.config;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * One run's full configuration, as plain data: parsed and validated once at the edge (CLI flags), recorded
 * in run.json, and enough to repeat the run.
 *
 * @param profile async-profiler's event for a profile of the measured window ({@code --profile}: cpu, alloc, lock,
 *                wall), or null for none
 * @param agents  where the load comes from ({@code --agents}), or null for this process's own driver
 * @param recording where the finished run is recorded ({@code --history}, {@code --label}), or null: in no history,
 *                  with no label
 */
public record RunConfig(String workload, String stack, String operation, Load load, Sut sut, String target,
                        String driverCpus, String out, boolean quiet, String profile, Agents agents,
                        Recording recording) {

    /**
     * Where a finished run goes beside its directory: a results history (docs/history.md).
     *
     * @param history    the history file, or null: the run is recorded in none
     * @param label      what the run measured, in the user's words (the project's commit or version), or null; not
     *                   part of what makes two runs comparable: it is what tells them apart along a series
     * @param experiment the directory of the experiment the run belongs to, or null for a run on its own
     * @param metricsExport where the run's live seconds are served as it goes ({@code --metrics-export
     *                   prometheus=[HOST:]PORT}), or null
     */
    public record Recording(String history, String label, String experiment, String metricsExport) {
        public Recording(String history, String label, String experiment) {
            this(history, label, experiment, null);
        }

        public Recording withExperiment(String directory) {
            return new Recording(history, label, directory, metricsExport);
        }

        public Recording withMetricsExport(String spec) {
            return new Recording(history, label, experiment, spec);
        }
    }

    /** A run with no recording. */
    public RunConfig(String workload, String stack, String operation, Load load, Sut sut, String target,
                     String driverCpus, String out, boolean quiet, String profile, Agents agents) {
        this(workload, stack, operation, load, sut, target, driverCpus, out, quiet, profile, agents, null);
    }

    /**
     * The driver as agents.
     *
     * @param spec       {@code local:N} or {@code ssh:user@host[:port],...}
     * @param key        ssh: the private key to authenticate with; null for ~/.ssh's usual ones
     * @param knownHosts ssh: the known_hosts file the hosts' keys are checked against; null for ~/.ssh/known_hosts
     * @param controller ssh: the address (and port) the agents dial, {@code ADDRESS[:PORT]}; null for this machine's
     *                   address facing the first host, on any free port
     */
    public record Agents(String spec, String key, String knownHosts, String controller) {
        public Agents {
            java.util.Objects.requireNonNull(spec, "spec");
        }
    }

    /** A run driven by this process. */
    public RunConfig(String workload, String stack, String operation, Load load, Sut sut, String target,
                     String driverCpus, String out, boolean quiet, String profile) {
        this(workload, stack, operation, load, sut, target, driverCpus, out, quiet, profile, null);
    }

    /** A run without a profile. */
    public RunConfig(String workload, String stack, String operation, Load load, Sut sut, String target,
                     String driverCpus, String out, boolean quiet) {
        this(workload, stack, operation, load, sut, target, driverCpus, out, quiet, null);
    }

    /** The same run writing into another directory (an experiment's run), quiet or not. */
    public RunConfig withOut(String directory, boolean quietly) {
        return new RunConfig(workload, stack, operation, load, sut, target, driverCpus, directory, quietly, profile, agents, recording);
    }

    /** The same run with its load from {@code spec}'s agents (null: this process's driver). */
    public RunConfig withAgents(Agents spec) {
        return new RunConfig(workload, stack, operation, load, sut, target, driverCpus, out, quiet, profile, spec, recording);
    }

    /** The same run with another SUT (a repetition's own fault instant: {@link RandomInstant}). */
    public RunConfig withSut(Sut other) {
        return new RunConfig(workload, stack, operation, load, other, target, driverCpus, out, quiet, profile, agents, recording);
    }

    /** The same run recorded as {@code given} says (null: in no history). */
    public RunConfig withRecording(Recording given) {
        return new RunConfig(workload, stack, operation, load, sut, target, driverCpus, out, quiet, profile, agents, given);
    }

    /** The same run with another load (a point of a sweep). */
    public RunConfig withLoad(Load other, String directory) {
        return new RunConfig(workload, stack, operation, other, sut, target, driverCpus, directory, quiet, profile, agents, recording);
    }

    /**
     * The load side.
     *
     * @param rate        open-model rate in requests/s; 0 = closed model
     * @param schedule    "constant" or "poisson" (open model)
     * @param duration    measured window by time, or null when {@code requests} > 0
     * @param keepalive   "on", "off" or a number of requests per connection
     * @param deepCheck   share of measured responses whose whole content is compared (0..1)
     * @param http        "http1" or "h2c" (HTTP/2 cleartext with prior knowledge); with `run`, the SUT serves it too
     * @param streamsPerConnection h2c: concurrent streams per connection (1 for HTTP/1.1)
     * @param extra       the workload's own traffic settings given ({@code WorkloadSetting.Use.TRAFFIC}), by flag
     *                    name without dashes ("request-size"), canonical; defaults are not recorded
     * @param warmupAuto  the warm-up ends when the system is warm ({@code --warmup auto}), {@code warmup} being
     *                    its maximum; false: {@code warmup} is its exact length
     */
    public record Load(int clients, double rate, String schedule, Duration duration, long requests,
                       Duration warmup, long warmupRequests, Duration thinkTime, String keepalive, Duration timeout,
                       long seed, double deepCheck, String http, int streamsPerConnection,
                       Map<String, String> extra, boolean warmupAuto) {
        public Load {
            extra = extra == null ? Map.of() : Map.copyOf(extra); // null: a run.json written before extras existed
        }

        /** A load with a warm-up of fixed length. */
        public Load(int clients, double rate, String schedule, Duration duration, long requests,
                    Duration warmup, long warmupRequests, Duration thinkTime, String keepalive, Duration timeout,
                    long seed, double deepCheck, String http, int streamsPerConnection,
                    Map<String, String> extra) {
            this(clients, rate, schedule, duration, requests, warmup, warmupRequests, thinkTime, keepalive, timeout,
                    seed, deepCheck, http, streamsPerConnection, extra, false);
        }

        /** A load without workload-specific settings. */
        public Load(int clients, double rate, String schedule, Duration duration, long requests,
                    Duration warmup, long warmupRequests, Duration thinkTime, String keepalive, Duration timeout,
                    long seed, double deepCheck, String http, int streamsPerConnection) {
            this(clients, rate, schedule, duration, requests, warmup, warmupRequests, thinkTime, keepalive, timeout,
                    seed, deepCheck, http, streamsPerConnection, Map.of());
        }

        public String model() {
            return rate > 0 ? "open" : "closed";
        }

        /** The same load with another number of clients (a point of a client-scaling sweep). */
        public Load withClients(int n) {
            return new Load(n, rate, schedule, duration, requests, warmup, warmupRequests, thinkTime, keepalive,
                    timeout, seed, deepCheck, http, streamsPerConnection, extra, warmupAuto);
        }
    }

    /**
     * The SUT side.
     *
     * @param heap      -Xms = -Xmx, as given ("512m"), or null for the JVM's default
     * @param gc        serial, parallel, g1, zgc, shenandoah, or null for the JVM's choice
     * @param javaHome  the JDK that runs the SUT; null = the one running perflab
     * @param cpus      CPU list for taskset ("0", "1", "0-1"), or null
     * @param port      SUT port; 0 = ephemeral
     * @param settings  the server settings given, by flag name without dashes: perflab's common ones every stack
     *                  takes (server-threads, http, ...) and the workload's own server-side ones (claims: backend)
     * @param instances how many JVMs run the SUT (each with these settings, its own ports, behind the workload's
     *                  proxy); 1 = the SUT as one process
     * @param killInstanceAt a fail-over run ({@code --kill-instance-at}): the first instance is killed with SIGKILL
     *                  this long into the measured window; null: none
     * @param restartInstanceAt the killed instance started again ({@code --restart-instance-at}) this long into the
     *                  measured window, on the ports it had, rejoining its partner; null: it stays down
     * @param restartProxyAt the proxies in front of the instances (the companions started after them) stopped and
     *                  started again on their ports ({@code --restart-proxy-at}) this long into the measured window;
     *                  null: never
     * @param server    the server file the SUT is started from ({@code --server}), its own settings among
     *                  {@code settings}; null: the workload's stack. Left out of run.json's config, which records
     *                  the file on its own ({@code server}: its path, hash and text)
     */
    public record Sut(List<String> jvmFlags, String heap, String gc, String javaHome, String cpus, int port,
                      Map<String, String> settings, int instances, Duration killInstanceAt, Duration restartInstanceAt,
                      Duration restartProxyAt,
                      @com.fasterxml.jackson.annotation.JsonIgnore perflab.core.server.ServerFile server) {
        public Sut {
            jvmFlags = List.copyOf(jvmFlags);
            settings = Map.copyOf(settings);
            // run.json written before --instances has none: read as 0, it was one process
            instances = instances == 0 ? 1 : perflab.core.workload.SutInstances.check(instances);
            if (killInstanceAt != null && instances < 2) {
                throw new IllegalArgumentException("--kill-instance-at kills one of the SUT's instances: it needs "
                        + "--instances 2 or more, so that another takes its users over");
            }
            if (killInstanceAt != null && (killInstanceAt.isNegative() || killInstanceAt.isZero())) {
                throw new IllegalArgumentException("--kill-instance-at is a time into the measured window, above 0");
            }
            if (restartInstanceAt != null && (killInstanceAt == null || restartInstanceAt.compareTo(killInstanceAt) <= 0)) {
                throw new IllegalArgumentException("--restart-instance-at starts the killed instance again: it needs "
                        + "--kill-instance-at, and a later time" + (killInstanceAt == null ? "" : " than "
                        + killInstanceAt.toMillis() / 1000.0 + " s"));
            }
            if (restartProxyAt != null && instances < 2) {
                throw new IllegalArgumentException("--restart-proxy-at restarts the proxy in front of the SUT's "
                        + "instances: it needs --instances 2 or more");
            }
            if (restartProxyAt != null && (restartProxyAt.isNegative() || restartProxyAt.isZero())) {
                throw new IllegalArgumentException("--restart-proxy-at is a time into the measured window, above 0");
            }
        }

        /** The workload's own stack, not a server file's (run.json records a server file on its own). */
        public Sut(List<String> jvmFlags, String heap, String gc, String javaHome, String cpus, int port,
                   Map<String, String> settings, int instances, Duration killInstanceAt, Duration restartInstanceAt,
                   Duration restartProxyAt) {
            this(jvmFlags, heap, gc, javaHome, cpus, port, settings, instances, killInstanceAt, restartInstanceAt,
                    restartProxyAt, null);
        }

        /** The proxies not restarted. */
        public Sut(List<String> jvmFlags, String heap, String gc, String javaHome, String cpus, int port,
                   Map<String, String> settings, int instances, Duration killInstanceAt, Duration restartInstanceAt) {
            this(jvmFlags, heap, gc, javaHome, cpus, port, settings, instances, killInstanceAt, restartInstanceAt, null);
        }

        /** No instance restarted. */
        public Sut(List<String> jvmFlags, String heap, String gc, String javaHome, String cpus, int port,
                   Map<String, String> settings, int instances, Duration killInstanceAt) {
            this(jvmFlags, heap, gc, javaHome, cpus, port, settings, instances, killInstanceAt, null);
        }

        /** No instance killed. */
        public Sut(List<String> jvmFlags, String heap, String gc, String javaHome, String cpus, int port,
                   Map<String, String> settings, int instances) {
            this(jvmFlags, heap, gc, javaHome, cpus, port, settings, instances, null);
        }

        /** The SUT as one process. */
        public Sut(List<String> jvmFlags, String heap, String gc, String javaHome, String cpus, int port,
                   Map<String, String> settings) {
            this(jvmFlags, heap, gc, javaHome, cpus, port, settings, 1);
        }

        /** The same SUT with other settings. */
        public Sut withSettings(Map<String, String> other) {
            return new Sut(jvmFlags, heap, gc, javaHome, cpus, port, other, instances, killInstanceAt, restartInstanceAt,
                    restartProxyAt, server);
        }

        /** The same SUT with its first instance killed {@code at} into the window (null: none), not restarted. */
        public Sut withKillInstanceAt(Duration at) {
            return new Sut(jvmFlags, heap, gc, javaHome, cpus, port, settings, instances, at, null, restartProxyAt, server);
        }

        /** The same SUT with its killed instance started again {@code at} into the window (null: never). */
        public Sut withRestartInstanceAt(Duration at) {
            return new Sut(jvmFlags, heap, gc, javaHome, cpus, port, settings, instances, killInstanceAt, at,
                    restartProxyAt, server);
        }

        /** The same SUT with the proxies in front of its instances restarted {@code at} into the window (null: never). */
        public Sut withRestartProxyAt(Duration at) {
            return new Sut(jvmFlags, heap, gc, javaHome, cpus, port, settings, instances, killInstanceAt,
                    restartInstanceAt, at, server);
        }

        /** The same SUT started from a server file (null: the workload's stack). */
        public Sut withServer(perflab.core.server.ServerFile file) {
            return new Sut(jvmFlags, heap, gc, javaHome, cpus, port, settings, instances, killInstanceAt,
                    restartInstanceAt, restartProxyAt, file);
        }
    }
}
