package perflab.history;

import perflab.core.config.RunConfig;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Where the results history lives: {@code --history FILE|off}, else the environment's {@value #ENV} (a CI job sets it
 * once), else {@code history.sqlite} in the user's data directory ({@code $XDG_DATA_HOME/perflab}, by default
 * {@code ~/.local/share/perflab}), as the XDG base directories specify for data a program keeps for its user.
 */
public final class HistoryFile {
    public static final String ENV = "PERFLAB_HISTORY";
    public static final String OFF = "off";
    public static final String NAME = "history.sqlite";

    private HistoryFile() {
    }

    /** The longest {@code --label}: a commit, a version, a short note; not a file's contents. */
    static final int LABEL_MAX = 200;

    /**
     * Where a run given {@code --history} (null: not given) and {@code --label} (null: none) goes, in {@code env}.
     *
     * @throws IllegalArgumentException for a blank history or a label that is blank, too long or not one line
     */
    public static RunConfig.Recording recording(String history, String label, Map<String, String> env) {
        if (label != null && (label.isBlank() || label.length() > LABEL_MAX || label.chars().anyMatch(Character::isISOControl))) {
            throw new IllegalArgumentException("--label: give one line of at most " + LABEL_MAX
                    + " characters (a commit or a version), not '" + label.replaceAll("\\p{Cntrl}", " ") + "'");
        }
        return new RunConfig.Recording(resolve(history, env).map(p -> p.toAbsolutePath().toString()).orElse(null),
                label == null ? null : label.trim(), null);
    }

    /**
     * The history file that {@code flag} (null: not given) names in {@code env}; empty when recording is off.
     *
     * @throws IllegalArgumentException for a blank {@code --history}
     */
    public static Optional<Path> resolve(String flag, Map<String, String> env) {
        if (flag != null && flag.isBlank()) {
            throw new IllegalArgumentException("--history: give the history's file, or 'off' to record nothing");
        }
        String given = flag != null ? flag.trim() : env.get(ENV);
        if (given != null && !given.isBlank()) {
            return given.trim().equalsIgnoreCase(OFF) ? Optional.empty() : Optional.of(Path.of(given.trim()));
        }
        String data = env.get("XDG_DATA_HOME");
        // the specification: a relative XDG_DATA_HOME is invalid and is ignored
        Path base = data != null && !data.isBlank() && Path.of(data).isAbsolute() ? Path.of(data)
                : Path.of(env.getOrDefault("HOME", System.getProperty("user.home")), ".local", "share");
        return Optional.of(base.resolve("perflab").resolve(NAME));
    }
}
