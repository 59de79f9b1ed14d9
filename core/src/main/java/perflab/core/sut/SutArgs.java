package perflab.core.sut;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The command line of a SUT main class: {@code --name value} pairs. perflab passes {@code --host},
 * {@code --port}, {@code --jvm-report} and the stack's own settings; an unknown name is an error so that a
 * misspelt setting never silently falls back to a default.
 */
public final class SutArgs {
    private final Map<String, String> values = new LinkedHashMap<>();

    private SutArgs() {
    }

    /** Parses {@code args}; {@code known} lists the stack's own setting names (without dashes). */
    public static SutArgs parse(String[] args, Set<String> known) {
        SutArgs parsed = new SutArgs();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (!arg.startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("expected --name value pairs, got '" + arg + "'");
            }
            String name = arg.substring(2);
            if (!known.contains(name) && !SutBootstrap.COMMON_SETTINGS.contains(name)) {
                throw new IllegalArgumentException("unknown SUT setting --" + name + "; known: " + known);
            }
            parsed.values.put(name, args[++i]);
        }
        return parsed;
    }

    public String get(String name, String fallback) {
        return values.getOrDefault(name, fallback);
    }

    public int getInt(String name, int fallback) {
        return number(name, fallback, Integer::parseInt);
    }

    public long getLong(String name, long fallback) {
        return number(name, fallback, Long::parseLong);
    }

    private <T> T number(String name, T fallback, Function<String, T> parse) {
        String value = values.get(name);
        if (value == null) {
            return fallback;
        }
        try {
            return parse.apply(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + name + " must be an integer, got '" + value + "'");
        }
    }

    public boolean getBoolean(String name, boolean fallback) {
        String value = values.get(name);
        if (value == null) {
            return fallback;
        }
        return switch (value.trim().toLowerCase()) {
            case "on", "true", "yes" -> true;
            case "off", "false", "no" -> false;
            default -> throw new IllegalArgumentException("--" + name + " must be on or off, got '" + value + "'");
        };
    }

    public boolean has(String name) {
        return values.containsKey(name);
    }
}
