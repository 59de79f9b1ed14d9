package perflab.history;

import perflab.history.store.HistoryStore;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * {@code perflab history import DIR...}: records result directories written before (or without) a history. A DIR is
 * a run, or holds runs below it (an experiment, a client sweep, a whole results/ directory); a run already recorded
 * is left as it is, so importing twice records nothing twice.
 */
public final class HistoryImport {
    /** A run's directory lies this deep at most below a given one: results/, an experiment, its configuration. */
    static final int MAX_DEPTH = 4;
    static final String EXPERIMENT_FILE = "experiment.json";

    private HistoryImport() {
    }

    /** What an import did. {@code problems}: one line per run that could not be read. */
    public record Outcome(int added, int present, List<String> problems) {
    }

    /** Every run's directory in or below {@code dir}, in name order (so in time order for perflab's own names). */
    public static List<Path> runsIn(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException(dir + " is not a directory; give a run's or an experiment's directory, or results/");
        }
        if (RunReading.isRun(dir)) {
            return List.of(dir);
        }
        try (Stream<Path> files = Files.walk(dir, MAX_DEPTH)) {
            return files.filter(p -> p.getFileName().toString().equals(RunReading.MANIFEST) && Files.isRegularFile(p))
                    .map(Path::getParent).sorted().toList();
        }
    }

    /**
     * Records the runs in {@code dirs} into {@code store}, each without a label of its own labelled {@code label}
     * (null: none), each inside an experiment's directory marked as the experiment's.
     */
    public static Outcome into(HistoryStore store, List<Path> dirs, String label) throws IOException, SQLException {
        int added = 0;
        int present = 0;
        List<String> problems = new ArrayList<>();
        for (Path dir : dirs) {
            for (Path run : runsIn(dir)) {
                RecordedRun read;
                try {
                    read = RunReading.read(run).withDefaults(label, experimentOf(run));
                } catch (IOException | RuntimeException e) {
                    problems.add(run + ": " + HistoryRecorder.reason(e));
                    continue;
                }
                if (store.record(read).added()) {
                    added++;
                } else {
                    present++;
                }
            }
        }
        return new Outcome(added, present, problems);
    }

    /** The experiment a run's directory belongs to: the nearest directory above it with an experiment.json, or null. */
    static String experimentOf(Path run) {
        Path p = run.toAbsolutePath().normalize().getParent();
        for (int i = 0; i < 3 && p != null; i++, p = p.getParent()) {
            if (Files.isRegularFile(p.resolve(EXPERIMENT_FILE))) {
                return p.toString();
            }
        }
        return null;
    }
}
