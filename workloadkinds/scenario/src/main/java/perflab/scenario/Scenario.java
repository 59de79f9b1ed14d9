package perflab.scenario;

import java.util.List;
import java.util.Map;

/**
 * A scenario file as read and checked (docs/scenarios.md): the sessions one user's visit makes. A session does its
 * {@code once} steps (a login), then iterations of the mix (a transaction picked by weight each time, or the one
 * list of steps), and after {@code iterations} of them its {@code end} steps; then the client begins a new session
 * (cookies and extracted values forgotten, its next row of data).
 *
 * @param name        the scenario's name (its first key)
 * @param file        the file as the user gave it: the workload's name
 * @param variables   declared variables by name, in file order
 * @param data        data files by name (their columns are variables FILE.COLUMN)
 * @param iterations  iterations of the mix per session; 0: the session lasts the run
 * @param files       the files read: the scenario file, its data and body files (absolute, normalized)
 */
record Scenario(String name, String file, String description, Map<String, Variable> variables,
                Map<String, DataFile> data, List<Step> once, List<Transaction> mix, List<Step> end, int iterations,
                List<java.nio.file.Path> files) {
    /** A variable's name: letters, digits, _ and -; a data file's column is FILE.COLUMN. */
    static final String VAR_NAME = "[A-Za-z_][A-Za-z0-9_-]*(\\.[A-Za-z0-9_-]+)?";
    /**
     * Variables every session has. {@code seed} is the client's seed in base 36: it differs between the clients of a
     * run and between runs (unless --seed repeats one), so that a name made with it (a user registered) is new.
     */
    static final List<String> BUILT_IN = List.of("client", "session", "iteration", "seed");

    Scenario {
        variables = Map.copyOf(variables);
        data = Map.copyOf(data);
        once = List.copyOf(once);
        mix = List.copyOf(mix);
        end = List.copyOf(end);
        files = List.copyOf(files);
    }

    /** Every step of the file, in file order. */
    List<Step> steps() {
        List<Step> all = new java.util.ArrayList<>(once);
        mix.forEach(t -> all.addAll(t.steps()));
        all.addAll(end);
        return all;
    }

    /**
     * A weighted list of steps, one user's errand (a buy: quote, then order).
     *
     * @param endsSession the session ends after it, whether its steps passed or not (a logout): the end steps if any,
     *                    then a new session
     */
    record Transaction(String name, double weight, List<Step> steps, boolean endsSession) {
        Transaction {
            steps = List.copyOf(steps);
        }
    }

    /** A declared variable: how it takes a value each time a request uses it. */
    sealed interface Variable permits Counter, OneOf, Range, Constant {
    }

    /** Counts up from {@code start}, by one each request that uses it, per client. */
    record Counter(long start) implements Variable {
    }

    /** One of the values, at random, each request that uses it. */
    record OneOf(List<String> values) implements Variable {
        OneOf {
            values = List.copyOf(values);
        }
    }

    /** A whole number within [min, max], at random, each request that uses it. */
    record Range(long min, long max) implements Variable {
    }

    /** The same text every time. */
    record Constant(String value) implements Variable {
    }

    /** A CSV file with a header row: each session takes a row of its own. */
    record DataFile(String name, String path, List<String> columns, List<List<String>> rows) {
        DataFile {
            columns = List.copyOf(columns);
            rows = List.copyOf(rows);
        }
    }

    /** A pause after a step's response (closed model): fixed, uniform in [min, max], or negative-exponential of a mean. */
    record Think(Kind kind, long minNanos, long maxNanos) {
        enum Kind { FIXED, UNIFORM, EXPONENTIAL }

        long draw(java.util.SplittableRandom random) {
            return switch (kind) {
                case FIXED -> minNanos;
                case UNIFORM -> minNanos + (maxNanos > minNanos ? random.nextLong(maxNanos - minNanos + 1) : 0);
                // capped at 10x the mean, so that one draw cannot park a client for the rest of a run
                case EXPONENTIAL -> (long) Math.min(10.0 * minNanos, -Math.log(1 - random.nextDouble()) * minNanos);
            };
        }
    }
}
