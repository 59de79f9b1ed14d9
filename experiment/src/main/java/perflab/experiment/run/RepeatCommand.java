package perflab.experiment.run;

import perflab.core.config.RunConfig;
import perflab.core.workload.Workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The perflab command line that repeats a run, every setting explicit (recorded in run.json). */
public final class RepeatCommand {
    private RepeatCommand() {
    }

    /** Whether the run's server file is its stack's own ({@code --stack} says it), not {@code --server}'s. */
    private static boolean stacksFile(RunConfig c, Workload w) {
        return w.stacks().stream().anyMatch(s -> s.name().equals(c.stack()) && s.serverFile() != null);
    }

    /** The command line that repeats run {@code c} of workload {@code w}. */
    public static String of(RunConfig c, Workload w) {
        List<String> args = new ArrayList<>();
        args.add("./perflab");
        args.add(c.target() == null ? "run" : "drive");
        args.add(c.workload());
        if (c.target() != null) {
            add(args, "--target", c.target());
        } else if (c.sut().server() != null && !stacksFile(c, w)) {
            add(args, "--server", c.sut().server().source());
        } else {
            add(args, "--stack", c.stack());
        }
        add(args, "--operation", c.operation());
        RunConfig.Load l = c.load();
        add(args, "--clients", Integer.toString(l.clients()));
        if (l.rate() > 0) {
            add(args, "--rate", trim(l.rate()));
            add(args, "--schedule", l.schedule());
        }
        if (l.duration() != null) {
            add(args, "--duration", l.duration().toMillis() + "ms");
        } else {
            add(args, "--requests", Long.toString(l.requests()));
        }
        if (l.warmupRequests() > 0) {
            add(args, "--warmup-requests", Long.toString(l.warmupRequests()));
        } else {
            add(args, "--warmup", (l.warmupAuto() ? "auto:" : "") + l.warmup().toMillis() + "ms");
        }
        add(args, "--keepalive", l.keepalive());
        add(args, "--think-time", l.thinkTime().toMillis() + "ms");
        add(args, "--timeout", l.timeout().toMillis() + "ms");
        add(args, "--deep-check", trim(l.deepCheck()));
        add(args, "--seed", Long.toString(l.seed()));
        for (Map.Entry<String, String> e : new java.util.TreeMap<>(l.extra()).entrySet()) {
            add(args, "--" + e.getKey(), e.getValue());
        }
        if (!"http1".equals(l.http())) {
            add(args, "--http", l.http());
            add(args, "--streams-per-connection", Integer.toString(l.streamsPerConnection()));
        }
        if (c.target() == null) {
            RunConfig.Sut s = c.sut();
            if (!s.jvmFlags().isEmpty()) {
                add(args, "--jvm", String.join(" ", s.jvmFlags()));
            }
            if (s.heap() != null) {
                add(args, "--heap", s.heap());
            }
            if (s.gc() != null) {
                add(args, "--gc", s.gc());
            }
            if (s.javaHome() != null) {
                add(args, "--java-home", s.javaHome());
            }
            if (s.cpus() != null) {
                add(args, "--cpus", s.cpus());
            }
            if (s.port() != 0) {
                add(args, "--port", Integer.toString(s.port()));
            }
            if (s.instances() != 1) {
                add(args, "--instances", Integer.toString(s.instances()));
            }
            if (s.killInstanceAt() != null) {
                add(args, "--kill-instance-at", s.killInstanceAt().toMillis() + "ms");
            }
            if (s.restartInstanceAt() != null) {
                add(args, "--restart-instance-at", s.restartInstanceAt().toMillis() + "ms");
            }
            if (s.restartProxyAt() != null) {
                add(args, "--restart-proxy-at", s.restartProxyAt().toMillis() + "ms");
            }
            // the file's own knobs go by --set; those named as the workload's settings or perflab's flags by the flag
            java.util.Set<String> own = new java.util.HashSet<>(s.server() == null ? java.util.Set.of()
                    : s.server().settingNames());
            w.settings().forEach(setting -> own.remove(setting.name()));
            own.removeAll(perflab.core.sut.ServerSettings.NAMES);
            for (Map.Entry<String, String> e : new java.util.TreeMap<>(s.settings()).entrySet()) {
                if (own.contains(e.getKey())) {
                    add(args, "--set", e.getKey() + "=" + e.getValue()); // the server file's own knob
                } else {
                    add(args, "--" + e.getKey(), e.getValue());
                }
            }
            if (c.profile() != null) {
                add(args, "--profile", c.profile());
            }
        }
        if (c.driverCpus() != null) {
            add(args, "--driver-cpus", c.driverCpus());
        }
        if (c.agents() != null) {
            add(args, "--agents", c.agents().spec());
            if (c.agents().key() != null) {
                add(args, "--agents-key", c.agents().key());
            }
            if (c.agents().knownHosts() != null) {
                add(args, "--agents-known-hosts", c.agents().knownHosts());
            }
            if (c.agents().controller() != null) {
                add(args, "--agents-controller", c.agents().controller());
            }
        }
        return String.join(" ", args);
    }

    private static void add(List<String> args, String flag, String value) {
        args.add(flag);
        args.add(quote(value));
    }

    /** {@code v} as a POSIX shell reads it back: bare when it is safe, else in single quotes. */
    public static String quote(String v) {
        if (v.matches("[A-Za-z0-9_./:=,@%+-]+")) {
            return v;
        }
        return "'" + v.replace("'", "'\\''") + "'";
    }

    private static String trim(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%s", v);
    }
}
