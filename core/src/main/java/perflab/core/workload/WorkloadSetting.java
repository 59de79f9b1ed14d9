package perflab.core.workload;

import perflab.core.config.Quantities;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * One setting a workload declares for itself: `perflab run/serve/drive/tune` take it as {@code --name value},
 * `--help` and `perflab list` show it, and an experiment may sweep it when it is a dimension. perflab checks
 * and canonicalizes the value before anything starts ({@link #normalize}); the workload reads it by name.
 *
 * @param name         the flag without dashes ("request-size")
 * @param valueLabel   the value's placeholder in help ("SIZE", "early|late")
 * @param defaultValue the value when not given, in canonical form (null: the setting is optional and absent)
 * @param help         one or two sentences for --help
 * @param use          where the value goes: the traffic (client side) or the server side (SUT and companions)
 * @param dimension    whether `perflab tune` makes a matrix dimension of a comma list of values
 * @param check        checks one value and returns it canonical; throws IllegalArgumentException naming --name
 */
public record WorkloadSetting(String name, String valueLabel, String defaultValue, String help, Use use,
                              boolean dimension, UnaryOperator<String> check) {

    /** Which side of a run reads the setting. */
    public enum Use {
        /** The workload's traffic ({@code TrafficOptions.settings}); recorded in run.json under config.load.extra. */
        TRAFFIC,
        /** The server side ({@link Workload#serverSide}); recorded under config.sut.settings. */
        SERVER,
        /**
         * Both sides, which must agree (trade's population size: the server fills the database, the traffic picks
         * users and symbols in it); recorded under both.
         */
        BOTH;

        /** Whether a setting of this use is read by {@code side} (TRAFFIC or SERVER). */
        public boolean readBy(Use side) {
            return this == side || this == BOTH;
        }
    }

    public WorkloadSetting {
        Objects.requireNonNull(name);
        Objects.requireNonNull(use);
        Objects.requireNonNull(check);
        if (!name.matches("[a-z][a-z0-9-]*")) {
            throw new IllegalArgumentException("a workload setting's name is lower-case words joined by '-', got '" + name + "'");
        }
    }

    /** The value checked and canonical; the message names the flag. */
    public String normalize(String value) {
        if (value == null) {
            throw new IllegalArgumentException("--" + name + " needs a value");
        }
        return check.apply(value.trim());
    }

    /** The help with the default said at its end, unless the help says it itself. */
    public String helpWithDefault() {
        return defaultValue == null || help.contains("Default") ? help : help + " Default: " + defaultValue + ".";
    }

    /** The same setting, swept by `perflab tune` when given a comma list. */
    public WorkloadSetting asDimension() {
        return new WorkloadSetting(name, valueLabel, defaultValue, help, use, true, check);
    }

    /** The same setting, read by the server side instead of the traffic. */
    public WorkloadSetting forServer() {
        return new WorkloadSetting(name, valueLabel, defaultValue, help, Use.SERVER, dimension, check);
    }

    /** The same setting, read by the traffic and the server side alike. */
    public WorkloadSetting forBoth() {
        return new WorkloadSetting(name, valueLabel, defaultValue, help, Use.BOTH, dimension, check);
    }

    /** An integer within {@code min..max}. */
    public static WorkloadSetting integer(String name, Integer defaultValue, int min, int max, String help) {
        return new WorkloadSetting(name, "N", defaultValue == null ? null : defaultValue.toString(), help, Use.TRAFFIC,
                false, v -> {
                    long n;
                    try {
                        n = Long.parseLong(v);
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("--" + name + ": '" + v + "' is not a whole number");
                    }
                    if (n < min || n > max) {
                        throw new IllegalArgumentException("--" + name + " must be within " + min + ".." + max + ", got " + n);
                    }
                    return Long.toString(n);
                });
    }

    /** A size in bytes (3k, 100k, 1m) within {@code min..max} bytes, kept as given in lower case. */
    public static WorkloadSetting size(String name, String defaultValue, long min, long max, String help) {
        return new WorkloadSetting(name, "SIZE", defaultValue, help, Use.TRAFFIC, false, v -> {
            long bytes = Quantities.size("--" + name, v);
            if (bytes < min || bytes > max) {
                throw new IllegalArgumentException("--" + name + " must be within " + min + ".." + max + " bytes, got '" + v + "'");
            }
            return v.toLowerCase(Locale.ROOT);
        });
    }

    /** A time (500ms, 10s) within {@code min..max}, in whole milliseconds ("10000ms"). */
    public static WorkloadSetting duration(String name, String defaultValue, Duration min, Duration max, String help) {
        return new WorkloadSetting(name, "TIME", defaultValue, help, Use.TRAFFIC, false, v -> {
            Duration d = Quantities.duration("--" + name, v);
            if (d.compareTo(min) < 0 || d.compareTo(max) > 0 || d.toNanos() % 1_000_000 != 0) {
                throw new IllegalArgumentException("--" + name + " must be whole milliseconds within " + min.toMillis()
                        + "ms.." + max.toSeconds() + "s, got '" + v + "'");
            }
            return d.toMillis() + "ms";
        });
    }

    /** One of {@code choices} (case-insensitive); the first choice is not implied as the default. */
    public static WorkloadSetting choice(String name, String defaultValue, String help, String... choices) {
        List<String> accepted = Arrays.asList(choices);
        return new WorkloadSetting(name, String.join("|", accepted), defaultValue, help, Use.TRAFFIC, false, v -> {
            String lower = v.toLowerCase(Locale.ROOT);
            if (!accepted.contains(lower)) {
                throw new IllegalArgumentException("--" + name + ": '" + v + "' is not " + String.join(" or ", accepted));
            }
            return lower;
        });
    }

    /** JVM flags in one string ("-Xmx64m -XX:+UseSerialGC"), each starting with '-'; "" for none. */
    public static WorkloadSetting jvmFlags(String name, String defaultValue, String help) {
        return new WorkloadSetting(name, "\"FLAGS\"", defaultValue, help, Use.SERVER, false, v -> {
            List<String> flags = v.isBlank() ? List.of() : Arrays.asList(v.split("\\s+"));
            for (String f : flags) {
                if (!f.startsWith("-")) {
                    throw new IllegalArgumentException("--" + name + ": '" + f + "' is not a JVM flag (flags start with -)");
                }
            }
            return String.join(" ", flags);
        });
    }

    /** Free text matching {@code pattern} (a regular expression), described by {@code label}. */
    public static WorkloadSetting text(String name, String label, String defaultValue, String pattern, String help) {
        return new WorkloadSetting(name, label, defaultValue, help, Use.TRAFFIC, false, v -> {
            if (!v.matches(pattern)) {
                throw new IllegalArgumentException("--" + name + ": '" + v + "' is not " + label);
            }
            return v;
        });
    }
}
